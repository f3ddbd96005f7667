import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport

/// Issue 25: SIGINT/SIGTERM during `serve` with writes in flight — uploads, a batch being
/// processed, a pack being built — stop it in order: exit 0 within the issue's 5 s, nothing
/// half-written left, the library database sound, and every photo finished before the signal back
/// after a restart. Serialized: each test runs servers of its own, and processing is CPU-bound.
@Suite("serve stops in order on SIGINT and SIGTERM", .serialized)
struct ServeShutdownTests {
    @Test("SIGTERM or SIGINT while uploading, processing (preview) and packing: exit 0 within 5 s, nothing partial, finished photos kept",
          arguments: [SIGTERM, SIGINT])
    func stopsBusyPreviewServer(signal: Int32) async throws {
        try await stopWhileBusy(signal: signal, engine: nil)
    }

    @Test("SIGTERM or SIGINT while the real engine cuts photos out: exit 0 within 5 s, nothing partial, finished photos kept",
          arguments: [SIGTERM, SIGINT])
    func stopsBusyEngineServer(signal: Int32) async throws {
        let model = try await Stickers.model()
        try await stopWhileBusy(signal: signal, engine: model)
    }

    @Test("SIGTERM to an idle server: exit 0 within 5 s")
    func stopsIdleServer() async throws {
        let dirs = try ServerFolders()
        defer { dirs.remove() }
        let outcome = try await Stickers.run(dirs.serveArguments(engine: nil), environment: dirs.environment(engine: nil)) { process, stderr in
            _ = try await ServeProcess.port(of: stderr)
            let seconds = try await ServeProcess.stop(process, with: SIGTERM)
            print("idle serve stopped \(String(format: "%.2f", seconds)) s after SIGTERM")
            #expect(seconds < 5, "the issue's bound: stopped within 5 s")
        }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stderr.contains("stopped"), "\(outcome)")
    }

    /// Starts `serve` (previews, or the engine with the model at `engine`), uploads photos, starts
    /// processing and a pack download, signals it mid-way, then checks the folders and restarts.
    private func stopWhileBusy(signal: Int32, engine: String?) async throws {
        let dirs = try ServerFolders()
        defer { dirs.remove() }
        let photos = ["chelsea-cat.jpg", "ladybird.jpg", "marigold.jpg", "rocket.jpg", "coffee.png",
                      "nuthatch-portrait-exif8.jpg", "astronaut-portrait-exif6.jpg", "nuthatch-20mp.jpg"]
        let seen = Locked<Seen>(Seen())
        let first = try await Stickers.run(dirs.serveArguments(engine: engine), environment: dirs.environment(engine: engine)) { process, stderr in
            let api = try await ServeProcess.port(of: stderr)
            // The first photos uploaded and processing started; the rest are uploaded while it runs.
            for name in photos.prefix(4) { try await api.upload(name) }
            #expect(try await api.post("/api/stickers/process") == 202)
            for name in photos.dropFirst(4).dropLast() { try await api.upload(name) }
            let processed = try await api.waitForProcessed(atLeast: 1)
            // Writes in flight as the signal lands: one more upload and a pack being built.
            let upload = Task { try? await api.upload(photos.last!) }
            let pack = Task { try? await api.get("/api/stickers/pack.zip") }
            var snapshot = try await api.snapshot()
            // The first batch may be done already (a quiet machine): the photos uploaded since are
            // pending, so processing starts again and the signal lands on that run.
            if !snapshot.isProcessing && snapshot.processed.count < snapshot.photos.count {
                #expect(try await api.post("/api/stickers/process") == 202)
                snapshot = try await api.snapshot()
            }
            seen.withLock { $0.processedBefore = processed.union(snapshot.processed); $0.busy = snapshot.isProcessing }
            let seconds = try await ServeProcess.stop(process, with: signal)
            print("busy serve (\(engine == nil ? "preview" : "engine"), processing: \(snapshot.isProcessing), "
                  + "\(snapshot.processed.count)/\(snapshot.photos.count) made) stopped \(String(format: "%.2f", seconds)) s after signal \(signal)")
            #expect(seconds < 5, "the issue's bound: stopped within 5 s")
            if let acknowledged = await upload.value, acknowledged { seen.withLock { $0.lastUploadAcknowledged = true } }
            _ = await pack.value
        }
        #expect(first.status == 0, "\(first)")
        #expect(!first.stderr.contains("engine is unavailable"), "\(first)")
        if engine != nil { #expect(seen.withLock { $0.busy }, "the engine was still processing when the signal came") }

        // Nothing half-written anywhere the server writes: library, cache, temporary folder.
        let leftovers = [dirs.data, dirs.cache, dirs.temporary].flatMap(Self.temporaryFiles)
        #expect(leftovers.isEmpty, "left behind: \(leftovers)")
        let integrity = try await Self.integrityCheck(dirs.data.appending(path: "library.sqlite"))
        #expect(integrity == "ok", "integrity_check: \(integrity)")

        // A restart on the same folders shows every photo finished before the signal, each whole.
        let before = seen.withLock { $0 }
        let second = try await Stickers.run(dirs.serveArguments(engine: engine), environment: dirs.environment(engine: engine)) { process, stderr in
            let api = try await ServeProcess.port(of: stderr)
            let snapshot = try await api.snapshot()
            let names = Set(snapshot.photos.map(\.name))
            for name in photos.dropLast() { #expect(names.contains((name as NSString).deletingPathExtension), "\(name) lost") }
            if before.lastUploadAcknowledged { #expect(names.contains("nuthatch-20mp"), "an acknowledged upload was lost") }
            #expect(before.processedBefore.isSubset(of: snapshot.processed),
                    "finished before the signal: \(before.processedBefore.sorted()); after the restart: \(snapshot.processed.sorted())")
            for photo in snapshot.photos {
                #expect(["processed", "pending"].contains(photo.status), "\(photo.name) is \(photo.status)")
                guard photo.status == "processed" else { continue }
                let (status, png) = try await api.get("/api/stickers/photos/\(photo.id)/sticker.png")
                #expect(status == 200 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(photo.name)'s sticker: \(status)")
            }
            _ = try await ServeProcess.stop(process, with: SIGTERM)
        }
        #expect(second.status == 0, "\(second)")
    }

    /// AtomicFileWriter's `.NAME.PID.UUID.partial`, the cache's `.partial-PID-UUID` and
    /// `.evicting-PID-UUID` folders, `--no-cache` folders (`stickers-nocache-…`) and the web app's
    /// `stickers-web-…` download folders under `folder`.
    static func temporaryFiles(in folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            let name = (path as NSString).lastPathComponent
            return name.hasSuffix(".partial") || name.hasPrefix(".partial-") || name.hasPrefix(".evicting-")
                || name.hasPrefix("stickers-nocache-") || name.hasPrefix("stickers-web-")
        }
    }

    /// `PRAGMA integrity_check` through the sqlite3 shell ("ok" for a sound database).
    static func integrityCheck(_ database: URL) async throws -> String {
        try await ClipTools.runToEnd(["sqlite3", database.path, "PRAGMA integrity_check;"]).output
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// What the first server was seen to have done before the signal.
private struct Seen: Sendable {
    var processedBefore: Set<String> = []
    var busy = false
    var lastUploadAcknowledged = false
}

/// A server's own data, cache and temporary folders.
struct ServerFolders {
    let root: URL
    var data: URL { root.appending(path: "data") }
    var cache: URL { root.appending(path: "cache") }
    var temporary: URL { root.appending(path: "tmp") }

    init() throws {
        root = try temporaryFolder()
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    }

    func serveArguments(engine: String?) -> [String] {
        ["serve", "--port", "0", "--data-dir", data.path, "--cache-dir", cache.path] + (engine == nil ? ["--preview"] : [])
    }

    /// TMPDIR is the server's own, so the download folders it builds packs in can be checked.
    func environment(engine: String?) -> [String: String?] {
        ["TMPDIR": temporary.path, "STICKERS_MODEL": engine]
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// The running server, seen from the test: its address, and how it is stopped.
enum ServeProcess {
    /// Waits for "Serving on http://HOST:PORT" on its standard output (the file `out` beside the
    /// standard error's `Stickers.run` passes).
    static func port(of stderr: URL) async throws -> ServerAPI {
        let stdout = stderr.deletingLastPathComponent().appending(path: "out")
        for _ in 0..<1200 {
            let text = String(decoding: (try? Data(contentsOf: stdout)) ?? Data(), as: UTF8.self)
            if let range = text.range(of: "Serving on "), let line = text[range.upperBound...].split(separator: "\n").first,
               let url = URL(string: String(line)) {
                return ServerAPI(base: url)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let errors = String(decoding: (try? Data(contentsOf: stderr)) ?? Data(), as: UTF8.self)
        throw ServeTestError("the server did not say where it listens within 60 s: \(errors)")
    }

    /// Sends `signal` and waits (at most 30 s) for the process to end; returns the seconds it took.
    static func stop(_ process: Process, with signal: Int32) async throws -> Double {
        let start = ContinuousClock.now
        kill(process.processIdentifier, signal)
        while process.isRunning {
            guard ContinuousClock.now - start < .seconds(30) else {
                process.terminate()
                throw ServeTestError("serve still running 30 s after signal \(signal)")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// The few calls of the web API the test makes.
struct ServerAPI: Sendable {
    let base: URL

    struct Snapshot: Decodable {
        struct Photo: Decodable {
            var id: UUID
            var name: String
            var status: String
        }
        var photos: [Photo]
        var isProcessing: Bool
        var processed: Set<String> { Set(photos.filter { $0.status == "processed" }.map(\.name)) }
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 120
        return URLSession(configuration: configuration)
    }()

    private func send(_ request: URLRequest) async throws -> (Int, Data) {
        let (data, response) = try await Self.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    func get(_ path: String) async throws -> (Int, Data) {
        try await send(URLRequest(url: URL(string: path, relativeTo: base)!))
    }

    func post(_ path: String) async throws -> Int {
        var request = URLRequest(url: URL(string: path, relativeTo: base)!)
        request.httpMethod = "POST"
        return try await send(request).0
    }

    /// Uploads a sample photo; true when the server answered 201 (stored).
    @discardableResult
    func upload(_ sample: String) async throws -> Bool {
        var request = URLRequest(url: URL(string: "/api/stickers/photos?name=\(sample)", relativeTo: base)!)
        request.httpMethod = "POST"
        request.setValue(sample.hasSuffix(".png") ? "image/png" : "image/jpeg", forHTTPHeaderField: "Content-Type")
        request.httpBody = try Data(contentsOf: URL(fileURLWithPath: Stickers.sample(sample)))
        let (status, body) = try await send(request)
        guard status == 201 else { throw ServeTestError("uploading \(sample): \(status) \(String(decoding: body, as: UTF8.self))") }
        return true
    }

    func snapshot() async throws -> Snapshot {
        let (status, data) = try await get("/api/stickers")
        guard status == 200 else { throw ServeTestError("GET /api/stickers: \(status)") }
        return try JSONDecoder().decode(Snapshot.self, from: data)
    }

    /// Polls until `count` photos are processed (at most 10 minutes: the engine in a debug build
    /// on a busy machine is slow); returns their names.
    func waitForProcessed(atLeast count: Int) async throws -> Set<String> {
        for _ in 0..<6000 {
            let processed = try await snapshot().processed
            if processed.count >= count { return processed }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServeTestError("no photo was processed within 10 minutes")
    }
}

struct ServeTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
