import Foundation
import Testing
import TestSupport

/// Issue 36: `make` killed with SIGKILL at many moments leaves nothing behind once the next run is
/// done; two `make`s and a `serve` sharing one library and one cache at once all succeed with the
/// packs a lone run makes. Real processes of the built executable, the real engine. Serialized:
/// each test runs several engine processes, CPU-bound.
@Suite("many processes, killed processes", .serialized)
struct ManyProcessesTests {
    /// A fixed ZIP entry date (SOURCE_DATE_EPOCH), so two packs of the same photos are the same bytes.
    static let fixedDate = "1700000000"

    /// Folders of one "machine": a cache, a library, a temporary folder, an output folder.
    struct Place {
        let root: URL
        var cache: URL { root.appending(path: "cache") }
        var data: URL { root.appending(path: "data") }
        var temporary: URL { root.appending(path: "tmp") }
        var out: URL { root.appending(path: "out") }

        init() throws {
            root = try temporaryFolder()
            for folder in [temporary, out] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        }

        func environment(model: String, cacheLimit: String? = nil) -> [String: String?] {
            ["STICKERS_MODEL": model, "STICKERS_CACHE_DIR": cache.path, "STICKERS_DATA_DIR": data.path,
             "TMPDIR": temporary.path, "SOURCE_DATE_EPOCH": fixedDate, "STICKERS_CACHE_LIMIT": cacheLimit]
        }

        /// Every temporary left anywhere this place's processes write.
        var leftovers: [String] { [cache, data, out, temporary].flatMap(ServeShutdownTests.temporaryFiles) }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// A folder holding copies of the named samples (a photo set for `make`).
    static func photoSet(_ names: [String], in root: URL, named folder: String) throws -> URL {
        let url = root.appending(path: folder)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(at: URL(fileURLWithPath: Stickers.sample(name)), to: url.appending(path: name))
        }
        return url
    }

    /// The pack a lone `make` of `photos` writes on a fresh machine, and how long it took.
    static func lonePack(_ photos: URL, model: String) async throws -> (pack: Data, seconds: Double) {
        let place = try Place()
        defer { place.remove() }
        let pack = place.out.appending(path: "pack.zip")
        let start = ContinuousClock.now
        let run = try await Stickers.run(["make", photos.path, "-o", pack.path], environment: place.environment(model: model))
        let elapsed = ContinuousClock.now - start
        try #require(run.status == 0, "\(run)")
        return (try Data(contentsOf: pack), Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    @Test("make killed with SIGKILL at 8 moments, then one clean run: nothing left behind, nothing lost, the lone run's pack")
    func killedMakesLeaveNothing() async throws {
        let model = try await Stickers.model()
        let place = try Place()
        defer { place.remove() }
        let photos = try Self.photoSet(["chelsea-cat.jpg", "ladybird.jpg", "marigold.jpg", "rocket.jpg", "coffee.png"],
                                       in: place.root, named: "photos")
        let lone = try await Self.lonePack(photos, model: model)
        let pack = place.out.appending(path: "pack.zip")

        // Moments spread over a lone run's length, one in each eighth of it; as the cache fills,
        // later runs get further (the pack's write, the library's record) before the kill.
        let kills = 8
        var killed = 0
        for index in 0..<kills {
            let moment = lone.seconds * (Double(index) + Double.random(in: 0..<1)) / Double(kills)
            // Every fourth without the cache: its private folder must go too.
            let arguments = ["make", photos.path, "-o", pack.path] + (index % 4 == 3 ? ["--no-cache"] : [])
            let run = try await Stickers.run(arguments, environment: place.environment(model: model)) { process, _ in
                try await Self.killLater(process.processIdentifier, after: moment)
            }
            if run.status == 128 + SIGKILL { killed += 1 }
            print("make \(index + 1): \(run.status == 128 + SIGKILL ? "killed" : "exit \(run.status)") at \(String(format: "%.2f", moment)) s")
        }
        // Not a timing assertion: as the cache fills, later runs may end before their moment (more
        // so on a loaded machine); the first runs, killed within a quarter of a lone run, always count.
        #expect(killed >= 2, "runs were killed before their end")

        let clean = try await Stickers.run(["make", photos.path, "-o", pack.path, "--json"], environment: place.environment(model: model))
        #expect(clean.status == 0, "\(clean)")
        #expect(try Data(contentsOf: pack) == lone.pack, "the pack after the kills is the lone run's, byte for byte")
        #expect(place.leftovers.isEmpty, "left behind: \(place.leftovers)")
        let integrity = try await ServeShutdownTests.integrityCheck(place.data.appending(path: "library.sqlite"))
        #expect(integrity == "ok", "integrity_check: \(integrity)")
    }

    /// Sends SIGKILL to `pid` `seconds` from now, timed by a process of its own: this test process's
    /// threads may all be busy with other tests' engine work, so a `Task.sleep` here can wake so late
    /// that every run has ended (seen in a full `swift test`). Returns when the signal was sent.
    static func killLater(_ pid: Int32, after seconds: Double) async throws {
        let timer = Process()
        timer.executableURL = URL(fileURLWithPath: "/bin/sh")
        timer.arguments = ["-c", "sleep \(String(format: "%.3f", seconds)); kill -KILL \(pid) 2>/dev/null; true"]
        let ended = AsyncStream<Void>.makeStream()
        timer.terminationHandler = { _ in ended.continuation.finish() }
        try timer.run()
        for await _ in ended.stream {}
    }

    @Test("Two makes and a serve on one library and one cache at once: all succeed, the lone runs' packs, the database sound")
    func twoMakesAndServeShareEverything() async throws {
        let model = try await Stickers.model()
        let place = try Place()
        defer { place.remove() }
        let first = try Self.photoSet(["chelsea-cat.jpg", "ladybird.jpg", "marigold.jpg", "rocket.jpg"], in: place.root, named: "first")
        let second = try Self.photoSet(["marigold.jpg", "rocket.jpg", "coffee.png", "nuthatch-portrait-exif8.jpg"], in: place.root, named: "second")
        let served = ["ladybird.jpg", "marigold.jpg", "coffee.png"]
        let loneFirst = try await Self.lonePack(first, model: model).pack
        let loneSecond = try await Self.lonePack(second, model: model).pack

        // A one-byte cache limit: every make's trim evicts all it may, so an entry another
        // process still reads is only kept if eviction really respects it.
        let environment = place.environment(model: model, cacheLimit: "1")
        let serveArguments = ["serve", "--port", "0", "--data-dir", place.data.path, "--cache-dir", place.cache.path]
        let serve = try await Stickers.run(serveArguments, environment: environment) { process, stderr in
            let api = try await ServeProcess.port(of: stderr)
            for name in served { try await api.upload(name) }
            #expect(try await api.post("/api/stickers/process") == 202)
            async let makeFirst = Stickers.run(["make", first.path, "-o", place.out.appending(path: "first.zip").path],
                                               environment: environment)
            async let makeSecond = Stickers.run(["make", second.path, "-o", place.out.appending(path: "second.zip").path],
                                                environment: environment)
            let (one, two) = try await (makeFirst, makeSecond)
            #expect(one.status == 0, "first make: \(one)")
            #expect(two.status == 0, "second make: \(two)")
            _ = try await api.waitForProcessed(atLeast: served.count)
            let (status, zip) = try await api.get("/api/stickers/pack.zip")
            #expect(status == 200 && zip.starts(with: [0x50, 0x4B, 0x03, 0x04]), "the served pack: \(status)")
            let snapshot = try await api.snapshot()
            for photo in snapshot.photos {
                let (status, png) = try await api.get("/api/stickers/photos/\(photo.id)/sticker.png")
                #expect(status == 200 && png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(photo.name)'s sticker: \(status)")
            }
            _ = try await ServeProcess.stop(process, with: SIGTERM)
        }
        #expect(serve.status == 0, "\(serve)")
        #expect(try Data(contentsOf: place.out.appending(path: "first.zip")) == loneFirst, "the first pack is the lone run's")
        #expect(try Data(contentsOf: place.out.appending(path: "second.zip")) == loneSecond, "the second pack is the lone run's")
        #expect(place.leftovers.isEmpty, "left behind: \(place.leftovers)")
        let integrity = try await ServeShutdownTests.integrityCheck(place.data.appending(path: "library.sqlite"))
        #expect(integrity == "ok", "integrity_check: \(integrity)")
        let packs = try await Stickers.run(["library", "packs", "--json"], environment: environment)
        #expect(packs.status == 0 && packs.output.contains("first.zip") && packs.output.contains("second.zip"), "\(packs)")
    }
}
