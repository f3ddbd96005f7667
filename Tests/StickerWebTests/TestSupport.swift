import Foundation
import StickerLibrary
import Hummingbird
import HummingbirdTesting
import Raster
import SpacePhotos
import StickerApp
import StickerKit
import StickerWeb

/// A real PNG (2×2) to upload.
func samplePNG() throws -> Data {
    try ImageEncoder.png(Image(width: 2, height: 2, fill: RGBA8(r: 10, g: 120, b: 200)))
}

/// Bytes that look like a JPEG (magic number) but that the fake processor finds unreadable.
let corruptJPEG = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("corrupt".utf8)

struct JSONError: Decodable {
    struct Body: Decodable { var message: String }
    var error: Body
}

struct Snapshot: Decodable {
    struct Photo: Decodable {
        var id: UUID
        var name: String
        var status: String
        var reason: String?
        var colors: [Color]
    }
    struct Color: Decodable { var hex: String; var weight: Double }
    struct Progress: Decodable { var completed: Int; var total: Int; var fraction: Double }
    struct Limits: Decodable { var maxUploadBytes: Int; var maxPhotos: Int }
    var photos: [Photo]
    var progress: Progress
    var isProcessing: Bool
    var engineFailure: String?
    var hasLibrary: Bool
    var limits: Limits
}

extension TestResponse {
    func decoded<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    var errorMessage: String? { (try? decoded(JSONError.self))?.error.message }
}

/// The web app over `processor`, built by `buildApplication` (the wiring `stickers serve` uses),
/// run through Hummingbird's router test client (or a live server: `testing: .live`).
@MainActor
func withWebApp<Value: Sendable>(
    processor: any PhotoProcessing = FakePhotoProcessor(),
    library: URL? = nil,
    colorExtractor: any ColorSchemeExtracting = PhotoColorSchemeExtractor(),
    catalogAPI: URL = URL(string: "http://127.0.0.1:9/planetary/apod")!,
    savedPhotos: URL = FileManager.default.temporaryDirectory.appendingPathComponent("stickers-web-unused"),
    limits: WebLimits = WebLimits(maxUploadBytes: 64 * 1024, maxPhotos: 5),
    testing: TestingSetup = .router,
    store: StickerLibrary? = nil,
    cache: ProcessedPhotoDiskCache? = nil,
    capacity: ServerCapacity? = nil,
    packFolders: PackFolders = ScratchFolder.packFolders,
    clipStickers: ClipStickers? = nil,
    _ test: @escaping @Sendable (any TestClientProtocol) async throws -> Value
) async throws -> Value {
    var configuration = WebAppConfiguration(
        web: WebConfiguration(host: "127.0.0.1", port: 0, library: library, limits: limits),
        processor: processor, cache: cache, maxConcurrentJobs: 2, store: store,
        catalogAPI: APODConfiguration(baseURL: catalogAPI, apiKey: "test", retry: RetryPolicy(maxAttempts: 1), log: { _ in }),
        catalogSelection: .random(count: 4), savedPhotos: savedPhotos, colorExtractor: colorExtractor, packFolders: packFolders)
    configuration.clipStickers = clipStickers
    let app = try await buildApplication(configuration, capacity: capacity)
    return try await app.application.test(testing) { client in try await test(client) }
}

extension TestClientProtocol {
    /// Uploads `data` as a raw body named `name`; returns the response.
    @discardableResult
    func upload(_ data: Data, name: String, contentType: String = "image/png") async throws -> TestResponse {
        try await execute(uri: "/api/stickers/photos?name=\(name)", method: .post,
                          headers: [.contentType: contentType], body: ByteBuffer(bytes: data))
    }

    func snapshot() async throws -> Snapshot {
        try await execute(uri: "/api/stickers", method: .get).decoded()
    }

    /// Starts processing and reads the event stream to its end; returns the events' names and
    /// the last snapshot.
    func processAll() async throws -> (events: [String], final: Snapshot) {
        let started = try await execute(uri: "/api/stickers/process", method: .post)
        precondition(started.status == .accepted, "process answered \(started.status)")
        return try await readEvents()
    }

    func readEvents() async throws -> (events: [String], final: Snapshot) {
        let response = try await execute(uri: "/api/stickers/events", method: .get)
        let text = String(buffer: response.body)
        var names: [String] = []
        var last: Snapshot?
        for block in text.components(separatedBy: "\n\n") where !block.isEmpty {
            for line in block.split(separator: "\n") {
                if line.hasPrefix("event: ") { names.append(String(line.dropFirst(7))) }
                if line.hasPrefix("data: ") {
                    last = try JSONDecoder().decode(Snapshot.self, from: Data(line.dropFirst(6).utf8))
                }
            }
        }
        guard let last else { throw TestFailure("no events in \(text)") }
        return (names, last)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A multipart/form-data body holding `files` (name, bytes) under the field `photos`.
func multipartBody(_ files: [(String, Data)], boundary: String = "XyZ-boundary-42") -> (HTTPFields, ByteBuffer) {
    var body = Data()
    body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8))
    for (name, data) in files {
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"photos\"; filename=\"\(name)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8))
        body.append(data)
        body.append(Data("\r\n".utf8))
    }
    body.append(Data("--\(boundary)--\r\n".utf8))
    return ([.contentType: "multipart/form-data; boundary=\(boundary)"], ByteBuffer(bytes: body))
}
