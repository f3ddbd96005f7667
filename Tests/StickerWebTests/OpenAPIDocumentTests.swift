import Foundation
import Hummingbird
import HummingbirdTesting
import SpacePhotos
import Testing
@testable import StickerWeb

/// Issue 36: the OpenAPI document (Assets/openapi.json, served at GET /openapi.json) and the router
/// stay in step: every operation the document names is a route, and every route of the router is
/// either documented or one of the 405 answers that tell a client which methods a path takes.
@Suite struct OpenAPIDocumentTests {
    /// "METHOD /path/{param}" of every operation in the document.
    static func documentedOperations() throws -> Set<String> {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(PackageResources.openapi_json)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: Set<String> = []
        for (path, item) in paths {
            for method in item.keys where ["get", "put", "post", "delete", "patch"].contains(method) {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    /// "METHOD /path/{param}" of every route of the app `buildApplication` makes.
    @MainActor static func routes() async throws -> Set<String> {
        let web = WebConfiguration(host: "127.0.0.1", port: 0)
        let app = try await buildApplication(WebAppConfiguration(
            web: web, processor: FakePhotoProcessor(),
            catalogAPI: APODConfiguration(baseURL: URL(string: "http://127.0.0.1:9/planetary/apod")!, apiKey: "test")))
        return Set(WebApplication.router(configuration: web, services: app.services).routes.map { "\($0.method) \($0.path)" })
    }

    @Test("Every operation in the OpenAPI document is a route, and every other route answers 405 naming the documented methods")
    func documentAndRouterAgree() async throws {
        let documented = try Self.documentedOperations()
        let routes = try await Self.routes()
        let missing = documented.subtracting(routes)
        #expect(missing.isEmpty, "documented but not routed: \(missing.sorted())")

        // The rest are rejectOtherMethods' answers: 405, Allow naming exactly the documented methods.
        let undocumented = routes.subtracting(documented)
        try await withWebApp { client in
            for route in undocumented.sorted() {
                let parts = route.split(separator: " ").map(String.init)
                let (method, path) = (parts[0], parts[1])
                let expected = Set(documented.filter { $0.hasSuffix(" \(path)") }.map { String($0.split(separator: " ")[0]) })
                #expect(!expected.isEmpty, "\(route): a path the document does not have")
                let uri = path.replacingOccurrences(of: "{id}", with: UUID().uuidString)
                    .replacingOccurrences(of: "{platform}", with: "whatsapp")
                let response = try await client.execute(uri: uri, method: try #require(HTTPRequest.Method(method)))
                #expect(response.status == .methodNotAllowed, "\(route) is routed but not documented (\(response.status))")
                let allowed = Set((response.headers[.allow] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                #expect(allowed == expected, "\(route): Allow \(allowed.sorted()), documented \(expected.sorted())")
            }
        }
    }

    @Test("GET /openapi.json serves the document as JSON")
    func documentIsServed() async throws {
        try await withWebApp { client in
            let response = try await client.execute(uri: "/openapi.json", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(Data(buffer: response.body) == Data(PackageResources.openapi_json))
        }
    }
}
