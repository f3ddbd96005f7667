import Foundation
import HummingbirdTesting
import Testing

@Suite struct PageRoutesTests {
    @Test func thePageAndItsAssetsAreServed() async throws {
        try await withWebApp { client in
            let page = try await client.execute(uri: "/", method: .get)
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            let html = String(buffer: page.body)
            #expect(html.contains("id=\"tab-stickers\""))
            #expect(html.contains("/app.js"))

            let script = try await client.execute(uri: "/app.js", method: .get)
            #expect(script.headers[.contentType]?.hasPrefix("text/javascript") == true)
            #expect(String(buffer: script.body).contains("/api/stickers/events"))

            let style = try await client.execute(uri: "/app.css", method: .get)
            #expect(style.headers[.contentType]?.hasPrefix("text/css") == true)
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
}
