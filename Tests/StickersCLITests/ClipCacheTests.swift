import Foundation
import Testing
import TestSupport

/// Issue 34, item 6: an animated sticker is cached like a still (a second `make` over the same
/// clip does no work, its `--json` says each sticker came from the cache), and `make` killed with
/// SIGKILL while a clip is being made leaves nothing half-written: after one clean run, no
/// temporary anywhere and a valid pack. Real processes, the real engine and ffmpeg.
@Suite("CLI: clips cached, clips killed", .serialized)
struct ClipCacheTests {
    typealias Place = ManyProcessesTests.Place

    /// Every temporary a clip's work may leave: the shared ones, the WebM fit trials and the
    /// files of in-memory clips (both named by their process).
    static func leftovers(_ place: Place) -> [String] {
        place.leftovers + [place.temporary, place.cache.appending(path: "clips")].flatMap { folder in
            contents(of: folder).filter { $0.hasPrefix("stickers-fit-") || $0.hasPrefix("stickers-clip-") || $0.hasSuffix(".partial") }
        }
    }

    /// The animated pack's stickers in `make --json`.
    static func animatedStickers(_ run: Stickers.Outcome) throws -> [[String: Any]] {
        let animated = try #require(run.json?["animated"] as? [String: Any], "\(run)")
        let packs = try #require(animated["packs"] as? [[String: Any]])
        return try #require(packs.first?["stickers"] as? [[String: Any]])
    }

    /// Whether `file` (a Telegram pack) holds `name`.webm, a VP9 WebM with alpha (ffprobe's view).
    static func isValidTelegramPack(_ file: URL, sticker name: String, in folder: URL) throws -> Bool {
        let unzip = folder.appending(path: "unzipped-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: unzip) }
        guard try ClipTools.run(["python3", "-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
                                 file.path, unzip.path]).status == 0 else { return false }
        let probe = try ClipTools.run([try ClipTools.require("ffprobe"), "-v", "error", "-show_streams", "-of", "json",
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
        let clip = try ClipCLITests.ladybirdClip(in: place.root)
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
        let clip = try ClipCLITests.ladybirdClip(in: place.root)
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
                #expect(try Self.isValidTelegramPack(written, sticker: "ladybird", in: place.root))
            }
        }
        // Not a timing assertion: the first kill comes while ffmpeg runs, before any pack exists.
        #expect(killed >= 1, "a run was killed before its end")

        let clean = try await Stickers.run(arguments, environment: place.environment(model: model))
        #expect(clean.status == 0, "\(clean)")
        #expect(try Self.animatedStickers(clean).count == 1)
        #expect(try Self.isValidTelegramPack(place.out.appending(path: "pack-animated.zip"), sticker: "ladybird", in: place.root))
        #expect(Self.leftovers(place).isEmpty, "left behind: \(Self.leftovers(place))")
    }
}
