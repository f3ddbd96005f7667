import Foundation
import HummingbirdTesting
import Testing
@testable import StickerWeb

@Suite struct PageRoutesTests {
    @Test("the page, its style and its scripts (shared first, then one per tab) are served")
    func thePageAndItsAssetsAreServed() async throws {
        try await withWebApp { client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            let html = String(buffer: page.body)
            #expect(html.contains("id=\"tab-stickers\""))

            // The shared script first, then the carousel, then one per tab, each named by the page and served.
            let scripts = ["/common.js", "/carousel.js", "/stickers.js", "/colors.js", "/space.js"]
            let positions = scripts.compactMap { html.range(of: "<script src=\"\($0)\"></script>")?.lowerBound }
            #expect(positions.count == scripts.count && positions == positions.sorted())
            for (path, calls) in zip(scripts, ["function api(", "function createCarousel(", "/api/stickers/events", "/api/colors/extract", "/api/space/refresh"]) {
                let script = try await client.execute(uri: path, method: .get)
                #expect(script.status == .ok)
                #expect(script.headers[.contentType]?.hasPrefix("text/javascript") == true)
                #expect(String(buffer: script.body).contains(calls), "\(path) lacks \(calls)")
            }

            let style = try await client.execute(uri: "/app.css", method: .get)
            #expect(style.headers[.contentType]?.hasPrefix("text/css") == true)
            #expect(String(buffer: style.body).contains(".carousel"))
        }
    }

    @Test func anUnknownPathIsA404WithAJSONMessage() async throws {
        try await withWebApp { client in
            let response = try await client.execute(uri: "/api/nothing-here", method: .get)
            #expect(response.status == .notFound)
            #expect(response.errorMessage == "nothing at GET /api/nothing-here")
        }
    }

    @Test func aWrongMethodIsA405ThatSaysWhichMethodsWork() async throws {
        try await withWebApp { client in
            let response = try await client.execute(uri: "/api/stickers/process", method: .get)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "POST")
            #expect(response.errorMessage?.contains("use POST") == true)

            let put = try await client.execute(uri: "/api/stickers", method: .put)
            #expect(put.status == .methodNotAllowed)
            #expect(put.headers[.allow] == "GET")
        }
    }

    @Test func anotherSitesPageCannotChangeAnything() async throws {
        try await withWebApp { client in
            let foreign = try await client.execute(uri: "/api/stickers/photos", method: .delete,
                                                   headers: [.origin: "http://evil.example"])
            #expect(foreign.status == .forbidden)
            #expect(foreign.errorMessage == "cross-site request refused: http://evil.example may not change this app")
            let read = try await client.execute(uri: "/api/stickers", method: .get, headers: [.origin: "http://evil.example"])
            #expect(read.status == .ok)
            let script = try await client.execute(uri: "/api/stickers/photos", method: .delete)
            #expect(script.status == .ok)
        }
    }

    @Test func anOriginMatchesOnlyItsOwnHostAndPort() {
        #expect(isSameOrigin("http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(isSameOrigin("HTTP://LocalHost:8080", host: "localhost:8080"))
        #expect(!isSameOrigin("http://127.0.0.1:8081", host: "127.0.0.1:8080"))
        #expect(!isSameOrigin("http://evil.example", host: "127.0.0.1:8080"))
        #expect(!isSameOrigin("null", host: "127.0.0.1:8080"))
        #expect(!isSameOrigin("http://127.0.0.1:8080", host: nil))
    }
}
