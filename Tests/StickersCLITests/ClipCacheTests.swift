import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
import ZIPFoundation

/// Issue 34, item 6: an animated sticker is cached like a still (a second `make` over the same
/// clip does no work, its `--json` says each sticker came from the cache), and `make` killed with
/// SIGKILL while a clip is being made leaves nothing half-written: after one clean run, no
/// temporary anywhere and a valid pack. Real processes, the real engine and ffmpeg.
@Suite("CLI: clips cached, clips killed", .serialized)
struct ClipCacheTests {
    typealias Place = ManyProcessesTests.Place

    /// Every temporary a clip's work may leave: the shared ones (the cache's half-written entries
    /// among them), the WebM fit trials and the files of in-memory clips (both named by their process).
    static func leftovers(_ place: Place) -> [String] {
        place.leftovers + contents(of: place.temporary).filter { $0.hasPrefix("stickers-fit-") || $0.hasPrefix("stickers-clip-") }
    }

    /// The entries of the ZIP `file`.
    static func zipEntries(_ file: URL) throws -> [String] {
        try Archive(url: file, accessMode: .read).map(\.path)
    }

    /// The bytes of `entry` in the ZIP `file`.
    static func zipEntry(_ file: URL, _ entry: String) throws -> Data {
        let archive = try Archive(url: file, accessMode: .read)
        var data = Data()
        _ = try archive.extract(try #require(archive[entry], "\(entry) in \(file.lastPathComponent)")) { data.append($0) }
        return data
    }

    /// Whether `data` is an animated WebP (RIFF, WEBP, a VP8X header and an ANIM chunk).
    static func isAnimatedWebP(_ data: Data) -> Bool {
        data.count > 40 && data.prefix(4) == Data("RIFF".utf8) && data[8..<16] == Data("WEBPVP8X".utf8)
            && data.range(of: Data("ANIM".utf8)) != nil
    }

    /// Uploads the clip `file` to the running server; its status.
    static func upload(_ file: URL, to api: ServerAPI) async throws -> Int {
        var request = URLRequest(url: URL(string: "/api/stickers/photos?name=\(file.lastPathComponent)", relativeTo: api.base)!)
        request.httpMethod = "POST"
        request.setValue("video/mp4", forHTTPHeaderField: "Content-Type")
        request.httpBody = try Data(contentsOf: file)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// The animated pack's stickers in `make --json`.
    static func animatedStickers(_ run: Stickers.Outcome) throws -> [[String: Any]] {
        let animated = try #require(run.json?["animated"] as? [String: Any], "\(run)")
        let packs = try #require(animated["packs"] as? [[String: Any]])
        return try #require(packs.first?["stickers"] as? [[String: Any]])
    }

    /// Whether `file` (a Telegram pack) holds `name`.webm, a VP9 WebM with alpha (ffprobe's view).
    static func isValidTelegramPack(_ file: URL, sticker name: String, in folder: URL) async throws -> Bool {
        let unzip = folder.appending(path: "unzipped-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: unzip) }
        guard try await ClipTools.runToEnd(["python3", "-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
                                 file.path, unzip.path]).status == 0 else { return false }
        let probe = try await ClipTools.runToEnd([try ClipTools.require("ffprobe"), "-v", "error", "-show_streams", "-of", "json",
                                       unzip.appending(path: "\(name).webm").path])
        guard probe.status == 0, let json = try JSONSerialization.jsonObject(with: Data(probe.output.utf8)) as? [String: Any],
              let stream = (json["streams"] as? [[String: Any]])?.first, let tags = stream["tags"] as? [String: Any] else { return false }
        return stream["codec_name"] as? String == "vp9" && (tags["alpha_mode"] as? String == "1" || tags["ALPHA_MODE"] as? String == "1")
    }

    @Test("make over a clip twice: the second run does no work, every animated sticker from the cache, the same pack")
    func secondRunIsCached() async throws {
        let model = try await Stickers.model()
        let place = try Place()
        defer { place.remove() }
        let clip = try await ClipCLITests.ladybirdClip(in: place.root)
        let pack = place.out.appending(path: "pack.zip")
        let first = try await Stickers.run(["make", clip.path, "-o", pack.path, "--for", "telegram", "--json"],
                                           environment: place.environment(model: model))
        #expect(first.status == 0, "\(first)")
        #expect(try Self.animatedStickers(first).map { $0["cached"] as? Bool } == [false], "the first run makes it")
        let animated = place.out.appending(path: "pack-animated.zip")
        let made = try Data(contentsOf: animated)

        let second = try await Stickers.run(["make", clip.path, "-o", pack.path, "--for", "telegram", "--json"],
                                            environment: place.environment(model: model))
        #expect(second.status == 0, "\(second)")
        #expect(try Self.animatedStickers(second).map { $0["cached"] as? Bool } == [true], "the second run does no work")
        #expect(try Data(contentsOf: animated) == made, "the same pack, byte for byte")
        #expect(Self.leftovers(place).isEmpty, "left behind: \(Self.leftovers(place))")
    }

    @Test("make killed with SIGKILL while a clip is made, then one clean run: nothing half-written, no temporary, a valid pack")
    func killedWhileMakingAClip() async throws {
        let model = try await Stickers.model()
        let place = try Place()
        defer { place.remove() }
        let clip = try await ClipCLITests.ladybirdClip(in: place.root)
        let pack = place.out.appending(path: "pack.zip")
        let arguments = ["make", clip.path, "-o", pack.path, "--for", "telegram", "--json"]

        // Killed at moments spread over the clip's work: the first once ffmpeg decodes (a child
        // runs), the later ones further in (the cut-out, the WebM fitting, the cache's store).
        var killed = 0
        for delay in [0.0, 1.0, 3.0, 6.0] {
            let run = try await Stickers.run(arguments, environment: place.environment(model: model)) { process, _ in
                // Until a child (ffprobe, then ffmpeg) runs: at most 30 s.
                for _ in 0..<600 {
                    if !ClipCLITests.children(of: process.processIdentifier).isEmpty { break }
                    try await Task.sleep(for: .milliseconds(50))
                }
                try await Task.sleep(for: .seconds(delay))
                kill(process.processIdentifier, SIGKILL)
            }
            if run.status == 128 + SIGKILL { killed += 1 }
            print("clip make killed after \(delay) s: \(run.status == 128 + SIGKILL ? "killed" : "exit \(run.status)")")
            // Killed or not, no pack is half-written: there is none, or a whole, valid one.
            let written = place.out.appending(path: "pack-animated.zip")
            if FileManager.default.fileExists(atPath: written.path) {
                #expect(try await Self.isValidTelegramPack(written, sticker: "ladybird", in: place.root))
            }
        }
        // Not a timing assertion: the first kill comes while ffmpeg runs, before any pack exists.
        #expect(killed >= 1, "a run was killed before its end")

        let clean = try await Stickers.run(arguments, environment: place.environment(model: model))
        #expect(clean.status == 0, "\(clean)")
        #expect(try Self.animatedStickers(clean).count == 1)
        #expect(try await Self.isValidTelegramPack(place.out.appending(path: "pack-animated.zip"), sticker: "ladybird", in: place.root))
        #expect(Self.leftovers(place).isEmpty, "left behind: \(Self.leftovers(place))")
    }

    @Test("make over clips without --for: the pack.zip holds each clip's animated WebP, named like the stills; a second run is cached")
    func plainZipHoldsTheClips() async throws {
        let model = try await Stickers.model()
        let place = try Place()
        defer { place.remove() }
        let clip = try await ClipCLITests.ladybirdClip(in: place.root)
        let pack = place.out.appending(path: "pack.zip")
        let arguments = ["make", clip.path, Stickers.sample("ladybird.jpg"), "-o", pack.path, "--json"]
        let first = try await Stickers.run(arguments, environment: place.environment(model: model))
        #expect(first.status == 0, "\(first)")
        #expect(try Self.animatedStickers(first).map { $0["file"] as? String } == ["ladybird-2.sticker.webp"], "\(first)")
        #expect(Set(try Self.zipEntries(pack)) == ["ladybird.sticker.png", "ladybird.gradient.png", "ladybird-2.sticker.webp",
                                                   "palettes.json", "manifest.json"])
        let webp = try Self.zipEntry(pack, "ladybird-2.sticker.webp")
        #expect(Self.isAnimatedWebP(webp))
        if let webpmux = ClipCLITests.tool("webpmux") {
            let saved = place.root.appending(path: "clip.webp")
            try webp.write(to: saved)
            let info = String(decoding: try await ClipCLITests.output(of: [webpmux, "-info", saved.path], in: place.root), as: UTF8.self)
            #expect(info.contains("Features present: animation") && info.contains("Loop Count : 0"), "\(info)")
        }
        #expect(!FileManager.default.fileExists(atPath: place.out.appending(path: "pack-animated.zip").path), "no pack of its own")

        let second = try await Stickers.run(arguments, environment: place.environment(model: model))
        #expect(second.status == 0, "\(second)")
        #expect(try Self.animatedStickers(second).map { $0["cached"] as? Bool } == [true], "the second run does no work")
        let info = try await Stickers.run(["cache", "info", "--json"], environment: place.environment(model: model))
        #expect(info.json?["animated"] as? Int == 1 && info.json?["entries"] as? Int == 2, "\(info)")
        #expect(Self.leftovers(place).isEmpty, "left behind: \(Self.leftovers(place))")
    }

    @Test("Two makes and a serve storing and trimming clips and photos in one cache at once (a one-byte limit): all succeed, whole entries only")
    func makesAndServeShareTheClipCache() async throws {
        let model = try await Stickers.model()
        let place = try Place()
        defer { place.remove() }
        let clip = try await ClipCLITests.ladybirdClip(in: place.root)
        let shortFolder = place.root.appending(path: "short")
        try FileManager.default.createDirectory(at: shortFolder, withIntermediateDirectories: true)
        let short = shortFolder.appending(path: "short.mp4")
        try FileManager.default.moveItem(at: try await ClipCLITests.ladybirdClip(in: shortFolder, seconds: 1), to: short)

        // A one-byte limit: every make's trim evicts all it may, so an entry another process
        // still reads is only kept if eviction really spares it.
        let environment = place.environment(model: model, cacheLimit: "1")
        let serveArguments = ["serve", "--port", "0", "--data-dir", place.data.path, "--cache-dir", place.cache.path]
        let serve = try await Stickers.run(serveArguments, environment: environment) { process, stderr in
            let api = try await ServeProcess.port(of: stderr)
            #expect(try await Self.upload(clip, to: api) == 201)
            #expect(try await api.post("/api/stickers/process") == 202)
            async let makeFirst = Stickers.run(["make", clip.path, Stickers.sample("marigold.jpg"), "-o", place.out.appending(path: "first.zip").path,
                                                "--json"], environment: environment)
            async let makeSecond = Stickers.run(["make", short.path, clip.path, "-o", place.out.appending(path: "second.zip").path, "--json"],
                                                environment: environment)
            let (one, two) = try await (makeFirst, makeSecond)
            #expect(one.status == 0, "first make: \(one)")
            #expect(two.status == 0, "second make: \(two)")
            _ = try await api.waitForProcessed(atLeast: 1)
            let snapshot = try await api.snapshot()
            for photo in snapshot.photos {
                let (status, webp) = try await api.get("/api/stickers/photos/\(photo.id)/sticker.webp")
                #expect(status == 200 && Self.isAnimatedWebP(webp), "\(photo.name)'s animated sticker: \(status)")
            }
            let (status, zip) = try await api.get("/api/stickers/pack.zip")
            #expect(status == 200, "the served pack: \(status)")
            let served = place.root.appending(path: "served.zip")
            try zip.write(to: served)
            #expect(try Self.zipEntries(served).contains("ladybird.sticker.webp"))
            _ = try await ServeProcess.stop(process, with: SIGTERM)
        }
        #expect(serve.status == 0, "\(serve)")
        let first = place.out.appending(path: "first.zip"), second = place.out.appending(path: "second.zip")
        #expect(Set(try Self.zipEntries(first)) == ["marigold.sticker.png", "marigold.gradient.png", "ladybird.sticker.webp",
                                                    "palettes.json", "manifest.json"])
        #expect(Set(try Self.zipEntries(second)) == ["short.sticker.webp", "ladybird.sticker.webp", "manifest.json", "palettes.json"])
        for (pack, entry) in [(first, "ladybird.sticker.webp"), (second, "short.sticker.webp"), (second, "ladybird.sticker.webp")] {
            #expect(Self.isAnimatedWebP(try Self.zipEntry(pack, entry)), "\(pack.lastPathComponent): \(entry)")
        }
        #expect(Self.leftovers(place).isEmpty, "left behind: \(Self.leftovers(place))")
    }
}
