import Foundation
import Hummingbird
import HummingbirdTesting
@testable import StickerWeb
import Testing

/// DNS rebinding: a page on another site that makes its name resolve to 127.0.0.1 reaches the app
/// with its own name in `Host` (and a matching `Origin`). Only this server's names are answered.
@Suite struct HostAllowListTests {
    /// The raw client's read timeout (15 s by default) is not what is tested: in a full `swift
    /// test` the server's handlers share two pool threads with the engine tests, and one answer
    /// took longer than that (a spurious failure seen 127 s into a run).
    static let patient = TestClient.Configuration(timeout: .seconds(120))

    @Test func aRebindingPageIsRefusedBeforeAnyRouteEvenWithAMatchingOrigin() async throws {
        try await withWebApp(testing: .live) { client in
            let port = try #require(client.port)
            try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: Self.patient) { raw in
                let foreign = "evil.example:\(port)"
                let write = try await raw.execute(TestClient.Request(
                    "/api/stickers/photos", method: .delete, authority: foreign,
                    headers: [.origin: "http://\(foreign)"]))
                #expect(write.status == .misdirectedRequest)
                let message = String(buffer: write.body ?? ByteBuffer())
                #expect(message.contains("Host evil.example:\(port) is refused"))

                let read = try await raw.execute(TestClient.Request("/api/stickers", method: .get, authority: foreign))
                #expect(read.status == .misdirectedRequest)
                let page = try await raw.execute(TestClient.Request("/", method: .get, authority: foreign))
                #expect(page.status == .misdirectedRequest)
            }
        }
    }

    @Test func theLoopbackNamesWithTheBoundPortAreAnswered() async throws {
        try await withWebApp(testing: .live) { client in
            let port = try #require(client.port)
            try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: Self.patient) { raw in
                for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "[::1]:\(port)"] {
                    let response = try await raw.execute(TestClient.Request("/api/stickers", method: .get, authority: host))
                    #expect(response.status == .ok, "Host \(host)")
                }
                let otherPort = try await raw.execute(TestClient.Request(
                    "/api/stickers", method: .get, authority: "127.0.0.1:\(port == 65_535 ? 1 : port + 1)"))
                #expect(otherPort.status == .misdirectedRequest)
            }
        }
    }

    @Test func theSameOriginCheckStillGuardsWritesFromAnAllowedHost() async throws {
        try await withWebApp(testing: .live) { client in
            let port = try #require(client.port)
            try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: Self.patient) { raw in
                let response = try await raw.execute(TestClient.Request(
                    "/api/stickers/photos", method: .delete, authority: "127.0.0.1:\(port)",
                    headers: [.origin: "http://evil.example"]))
                #expect(response.status == .forbidden)
            }
        }
    }

    @Test func hostValuesAreParsedStrictly() {
        let list = HostAllowList(host: "127.0.0.1", port: 8080, extraNames: ["Studio.local", "::1"])
        #expect(list.allows("127.0.0.1:8080"))
        #expect(list.allows("localhost"))
        #expect(list.allows("studio.local:8080"))
        #expect(list.allows("[::1]:8080"))
        #expect(!list.allows("127.0.0.1:8081"))
        #expect(!list.allows("127.0.0.1:port"))
        #expect(!list.allows("127.0.0.1.evil.example:8080"))
        #expect(!list.allows("evil.example"))
        #expect(!list.allows("[::1"))
        #expect(!list.allows(""))
        #expect(!list.allows(":8080"))
    }

    @Test func aHostGivenAtStartIsAnsweredToo() {
        let list = HostAllowList(host: "192.0.2.7", port: 0)
        #expect(list.allows("192.0.2.7:9000"))
        list.listening(on: 9000)
        #expect(!list.allows("192.0.2.7:9001"))
    }
}
