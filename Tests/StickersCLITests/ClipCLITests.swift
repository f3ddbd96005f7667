import Foundation
import Testing
import TestSupport

/// `stickers sticker CLIP`: the animated sticker's contract, checked with independent tools.
@Suite("CLI: clips", .serialized)
struct ClipCLITests {
    /// A 1.5 s clip of the ladybird sample (a clear subject), made by ffmpeg: a still camera, or
    /// (`panning`) one that pans across the photo, ladybird and all.
    static func ladybirdClip(in folder: URL, seconds: Double = 1.5, panning: Bool = false) async throws -> URL {
        let ffmpeg = try NeededResource.require(Self.tool("ffmpeg"), "ffmpeg", reason: "not on PATH (apt-get install ffmpeg)")
        let clip = folder.appending(path: panning ? "pan.mp4" : "ladybird.mp4")
        let made = try await run([ffmpeg, "-v", "error", "-y", "-loop", "1", "-framerate", "20", "-t", "\(seconds)", "-i", Stickers.sample("ladybird.jpg"),
                                  "-vf", panning ? "scale=480:-2,crop=400:300:5+40*t:10" : "scale=480:-2,crop=400:300:20:10", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path])
        try #require(made == 0, "ffmpeg could not make the test clip")
        return clip
    }

    static func tool(_ name: String) -> String? {
        ["/usr/bin", "/usr/local/bin", "/bin"].map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// What `arguments` print on standard output (run without holding a thread: see `ClipTools.runToEnd`).
    static func output(of arguments: [String], in folder: URL) async throws -> Data {
        Data(try await ClipTools.runToEnd(arguments).output.utf8)
    }

    @discardableResult
    static func run(_ arguments: [String]) async throws -> Int32 {
        try await ClipTools.runToEnd(arguments).status
    }

    @Test("sticker CLIP -o OUT.webp|.webm|.png writes a looping animation and every used frame's mask at the clip's size")
    func everyFormat() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.ladybirdClip(in: folder)
        for ext in ["webp", "webm", "png"] {
            let out = folder.appending(path: "s.\(ext)"), masks = folder.appending(path: "masks-\(ext)")
            let run = try await Stickers.run(["sticker", clip.path, "-o", out.path, "--mask", masks.path, "--outline", "4"],
                                             environment: ["STICKERS_MODEL": model])
            #expect(run.status == 0, "\(run)")
            // The masks, and the hidden list of them (what the next run into this folder replaces).
            let names = contents(of: masks).filter { $0 != ".stickers-masks" }
            #expect(contents(of: masks).filter { $0.hasPrefix(".") } == [".stickers-masks"], "no temporary file left")
            #expect(names.count == 15, "\(names)")  // 1.5 s at 20 fps, every 2nd frame (at most 15 fps)
            #expect(names.first == "0000.png" && names.dropFirst().first == "0002.png")
            let mask = try Data(contentsOf: masks.appending(path: "0000.png"))
            #expect(mask.count > 8 && mask[16..<24] == Data([0, 0, 1, 0x90, 0, 0, 1, 0x2C]), "400×300, the clip's size")
        }
        #expect(contents(of: folder).filter { $0.hasPrefix(".") }.isEmpty, "no temporary file left")
        if let webpmux = Self.tool("webpmux") {
            let text = String(decoding: try await Self.output(of: [webpmux, "-info", folder.appending(path: "s.webp").path], in: folder.deletingLastPathComponent()), as: UTF8.self)
            #expect(text.contains("Number of frames: 15") && text.contains("Loop Count : 0"), "\(text)")
        }
    }

    @Test("A WebM with alpha given as a clip keeps its transparency: its sticker has nothing where the clip is clear; an ffmpeg without libvpx reads it opaque")
    func webmWithAlphaStaysTransparent() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.ladybirdClip(in: folder)
        func python(_ script: String, _ arguments: [String]) async throws -> String {
            let run = try await ClipTools.runToEnd(["python3", "-c", script] + arguments)
            try #require(run.status == 0, "\(run.errors)")
            return run.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let opaque = try await Stickers.run(["sticker", clip.path, "-o", folder.appending(path: "a.webp").path, "--mask", folder.appending(path: "m0").path],
                                            environment: ["STICKERS_MODEL": model])
        try #require(opaque.status == 0, "\(opaque)")
        // The clip made clear right of its subject's centre (the picture is still there under alpha 0).
        let centre = try await python("""
            import sys, numpy as np
            from PIL import Image
            print(int(np.where((np.array(Image.open(sys.argv[1])) > 128).any(0))[0].mean()))
            """, [folder.appending(path: "m0/0000.png").path])
        let webm = folder.appending(path: "half.webm")
        let made = try await ClipTools.runToEnd([try ClipTools.require("ffmpeg"), "-v", "error", "-i", clip.path, "-vf",
                                                 "format=rgba,geq=r='r(X,Y)':g='g(X,Y)':b='b(X,Y)':a='if(lt(X,\(centre)),255,0)'",
                                                 "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "1M", webm.path])
        try #require(made.status == 0, "\(made.errors)")
        let half = try await Stickers.run(["sticker", webm.path, "-o", folder.appending(path: "b.webp").path, "--mask", folder.appending(path: "m1").path],
                                          environment: ["STICKERS_MODEL": model])
        try #require(half.status == 0, "\(half)")
        let counts = try await python("""
            import sys, numpy as np
            from PIL import Image
            c = int(sys.argv[3]); m0 = np.array(Image.open(sys.argv[1])); m1 = np.array(Image.open(sys.argv[2]))
            print((m0[:, c:] > 128).sum(), int(m1[:, c + 2:].max()), (m0[:, :c] > 128).sum(), (m1[:, :c - 2] > 128).sum())
            """, [folder.appending(path: "m0/0000.png").path, folder.appending(path: "m1/0000.png").path, centre])
        let n = counts.split(separator: " ").compactMap { Int($0) }
        try #require(n.count == 4, "\(counts)")
        #expect(n[0] > 50, "the opaque clip's subject reaches into the part made clear: \(counts)")
        #expect(n[1] < 16, "nothing of the sticker where the clip is clear: \(counts)")
        #expect(Double(n[3]) > 0.5 * Double(n[2]), "the visible part of the subject is still cut out: \(counts)")

        // An ffmpeg built without libvpx: not among its decoders, and "Unknown decoder" when asked for.
        let ffmpeg = try ClipTools.require("ffmpeg"), ffprobe = try ClipTools.require("ffprobe")
        let bare = folder.appending(path: "bare")
        try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bare.appending(path: "ffprobe").path, withDestinationPath: ffprobe)
        let script = bare.appending(path: "ffmpeg")
        try """
            #!/bin/sh
            for a in "$@"; do
              [ "$a" = "-i" ] && break
              case "$a" in libvpx*) echo "Unknown decoder '$a'" >&2; exit 1;; esac
            done
            case " $* " in *" -decoders "*) "\(ffmpeg)" "$@" | grep -v libvpx; exit 0;; esac
            exec "\(ffmpeg)" "$@"
            """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        let withoutLibvpx = try await Stickers.run(["sticker", webm.path, "-o", folder.appending(path: "c.webp").path, "--mask", folder.appending(path: "m2").path],
                                                   environment: ["STICKERS_MODEL": model, "STICKERS_FFMPEG_DIR": bare.path])
        #expect(withoutLibvpx.status == 0, "\(withoutLibvpx)")
        #expect(FileManager.default.fileExists(atPath: folder.appending(path: "m2/0000.png").path))
    }

    @Test("A clip with ffmpeg missing exits 69 saying to install it; a truncated clip 65 naming it; nothing written")
    func refusals() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.ladybirdClip(in: folder)
        let out = folder.appending(path: "s.webp")
        let missing = try await Stickers.run(["sticker", clip.path, "-o", out.path],
                                             environment: ["STICKERS_MODEL": model, "STICKERS_FFMPEG_DIR": folder.appending(path: "none").path])
        #expect(missing.status == 69, "\(missing)")
        #expect(missing.stderr.contains("install ffmpeg"))

        let bytes = try Data(contentsOf: clip)
        let cut = folder.appending(path: "cut.mp4")
        try bytes.prefix(bytes.count / 2).write(to: cut)
        let truncated = try await Stickers.run(["sticker", cut.path, "-o", out.path, "--mask", folder.appending(path: "m").path],
                                               environment: ["STICKERS_MODEL": model])
        #expect(truncated.status == 65, "\(truncated)")
        #expect(truncated.stderr.contains("cut.mp4"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // The mask folder this run made is gone again.
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "m").path))

        // A Matroska file cut short decodes to its break without ffmpeg failing: still refused.
        let mkv = folder.appending(path: "whole.mkv")
        let remuxed = try await ClipTools.runToEnd([try ClipTools.require("ffmpeg"), "-v", "error", "-i", clip.path, "-c", "copy", mkv.path])
        try #require(remuxed.status == 0, "\(remuxed.errors)")
        let mkvBytes = try Data(contentsOf: mkv)
        let cutMKV = folder.appending(path: "cut.mkv")
        try mkvBytes.prefix(mkvBytes.count * 2 / 3).write(to: cutMKV)
        try FileManager.default.removeItem(at: mkv)
        let endsEarly = try await Stickers.run(["sticker", cutMKV.path, "-o", out.path], environment: ["STICKERS_MODEL": model])
        #expect(endsEarly.status == 65, "\(endsEarly)")
        #expect(endsEarly.stderr.contains("cut.mkv"), "\(endsEarly.stderr)")

        let wrongExtension = try await Stickers.run(["sticker", clip.path, "-o", folder.appending(path: "s.jpg").path],
                                                    environment: ["STICKERS_MODEL": model])
        #expect(wrongExtension.status == 64, "\(wrongExtension)")
        #expect(contents(of: folder).sorted() == ["cut.mkv", "cut.mp4", "ladybird.mp4"])
    }

    @Test("An output that is the input itself, a photo's PNG named .webp, or a folder that does not exist is refused before any work; the input is untouched; --list-subjects of a clip is refused")
    func outputsThatWouldLoseAFileAreRefused() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ffmpeg = try NeededResource.require(Self.tool("ffmpeg"), "ffmpeg", reason: "not on PATH (apt-get install ffmpeg)")
        let clip = folder.appending(path: "clip.webm")
        try #require(try await Self.run([ffmpeg, "-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=64x48:r=10:d=0.5",
                                         "-c:v", "libvpx-vp9", clip.path]) == 0)
        let photo = folder.appending(path: "photo.png")
        try FileManager.default.copyItem(atPath: Stickers.sample("coffee.png"), toPath: photo.path)
        let clipBytes = try Data(contentsOf: clip), photoBytes = try Data(contentsOf: photo)
        let videoFolder = folder.appending(path: "holiday.mp4")  // a folder named like a clip
        try FileManager.default.createDirectory(at: videoFolder, withIntermediateDirectories: false)
        let environment = ["STICKERS_MODEL": model]
        for (arguments, status, words) in [(["sticker", clip.path, "-o", clip.path], 64, "is the input itself"),
                                           (["sticker", photo.path, "-o", photo.path], 64, "is the input itself"),
                                           (["sticker", photo.path, "-o", folder.appending(path: "s.png").path, "--mask", photo.path], 64, "is the input itself"),
                                           (["sticker", photo.path, "-o", folder.appending(path: "s.webp").path], 64, "name it .png"),
                                           (["sticker", clip.path, "-o", folder.appending(path: "none/s.webp").path], 74, "no such folder"),
                                           (["sticker", clip.path, "-o", folder.path], 74, "it is a folder"),
                                           (["sticker", clip.path, "--list-subjects"], 64, "takes a photo, not a clip"),
                                           (["sticker", videoFolder.path, "-o", folder.appending(path: "s.webp").path], 74, "it is a folder")] {
            let run = try await Stickers.run(arguments, environment: environment)
            #expect(run.status == status && run.stderr.contains(words), "\(arguments): \(run)")
        }
        #expect(try Data(contentsOf: clip) == clipBytes && Data(contentsOf: photo) == photoBytes)
        #expect(contents(of: folder) == ["clip.webm", "holiday.mp4", "photo.png"])
    }

    @Test("--start past the clip's last frame exits 65 saying how long the clip is; a negative --start is refused as such (64)")
    func startPastTheEnd() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.ladybirdClip(in: folder, seconds: 1)
        let out = folder.appending(path: "s.webp")
        let past = try await Stickers.run(["sticker", clip.path, "-o", out.path, "--start", "5"], environment: ["STICKERS_MODEL": model])
        #expect(past.status == 65, "\(past)")
        #expect(past.stderr.contains("--start 5 s") && past.stderr.contains("the clip lasts 1.00 s"), "\(past.stderr)")
        let negative = try await Stickers.run(["sticker", clip.path, "-o", out.path, "--start", "-1"], environment: ["STICKERS_MODEL": model])
        #expect(negative.status == 64 && negative.stderr.contains("--start must be 0 or more seconds"), "\(negative)")
        #expect(contents(of: folder) == ["ladybird.mp4"])
    }

    @Test("An animated PNG, whatever its name, is made into an animated sticker like any clip")
    func animatedPNGIsAClip() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ffmpeg = try NeededResource.require(Self.tool("ffmpeg"), "ffmpeg", reason: "not on PATH (apt-get install ffmpeg)")
        let video = try await Self.ladybirdClip(in: folder, seconds: 1)
        let apng = folder.appending(path: "ladybird.png")
        try #require(try await Self.run([ffmpeg, "-v", "error", "-i", video.path, "-plays", "0", "-f", "apng", apng.path]) == 0)
        let out = folder.appending(path: "s.webp"), masks = folder.appending(path: "m")
        let run = try await Stickers.run(["sticker", apng.path, "-o", out.path, "--mask", masks.path], environment: ["STICKERS_MODEL": model])
        #expect(run.status == 0, "\(run)")
        #expect(contents(of: masks).filter { !$0.hasPrefix(".") }.count == 10, "1 s at 20 fps, every 2nd frame")
        if let webpmux = Self.tool("webpmux") {
            let text = String(decoding: try await Self.output(of: [webpmux, "-info", out.path], in: folder), as: UTF8.self)
            #expect(text.contains("Number of frames: 10"), "\(text)")
        }
    }

    @Test("A second run into a --mask folder leaves its own masks only; one that cannot move its masks in exits 74 and changes nothing")
    func maskFolderHoldsOneRun() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.ladybirdClip(in: folder)
        let out = folder.appending(path: "s.webp"), masks = folder.appending(path: "m")
        func masksNow() -> [String] { contents(of: masks).filter { !$0.hasPrefix(".") } }
        let whole = try await Stickers.run(["sticker", clip.path, "-o", out.path, "--mask", masks.path], environment: ["STICKERS_MODEL": model])
        #expect(whole.status == 0, "\(whole)")
        #expect(masksNow().count == 15)
        try Data("mine".utf8).write(to: masks.appending(path: "notes.txt"))

        let piece = try await Stickers.run(["sticker", clip.path, "-o", out.path, "--mask", masks.path, "--start", "0.5", "--duration", "0.5"],
                                           environment: ["STICKERS_MODEL": model])
        #expect(piece.status == 0, "\(piece)")
        #expect(masksNow() == ["0010.png", "0012.png", "0014.png", "0016.png", "0018.png", "notes.txt"])
        let sticker = try Data(contentsOf: out), mask = try Data(contentsOf: masks.appending(path: "0010.png"))

        // A folder of the user's where a mask would go: refused before anything moves.
        try FileManager.default.createDirectory(at: masks.appending(path: "0000.png"), withIntermediateDirectories: false)
        let blocked = try await Stickers.run(["sticker", clip.path, "-o", out.path, "--mask", masks.path], environment: ["STICKERS_MODEL": model])
        #expect(blocked.status == 74, "\(blocked)")
        #expect(blocked.stderr.contains("0000.png"))
        #expect(masksNow() == ["0000.png", "0010.png", "0012.png", "0014.png", "0016.png", "0018.png", "notes.txt"])
        #expect(try Data(contentsOf: out) == sticker && Data(contentsOf: masks.appending(path: "0010.png")) == mask)
        #expect(contents(of: masks).filter { $0.hasPrefix(".") } == [".stickers-masks"], "no temporary file left")
    }

    @Test("A clip with no subject exits 65 and writes nothing")
    func noSubject() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ffmpeg = try NeededResource.require(Self.tool("ffmpeg"), "ffmpeg", reason: "not on PATH")
        let clip = folder.appending(path: "plain.mp4")
        try #require(try await Self.run([ffmpeg, "-v", "error", "-f", "lavfi", "-i", "color=c=0x5080b0:s=320x240:r=10:d=1",
                                   "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path]) == 0)
        let out = folder.appending(path: "s.webm")
        let run = try await Stickers.run(["sticker", clip.path, "-o", out.path, "--mask", folder.appending(path: "deep/m").path],
                                         environment: ["STICKERS_MODEL": model])
        #expect(run.status == 65, "\(run)")
        #expect(run.stderr.contains("no clear subject"))
        // Not even the mask folders this run made.
        #expect(contents(of: folder) == ["plain.mp4"])
    }

    @Test("SIGINT while a clip is cut out exits 130, leaves no file and no ffmpeg behind")
    func interrupted() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.ladybirdClip(in: folder, seconds: 8)
        let out = folder.appending(path: "s.webm")
        let seen = Locked<[Int32]>([])
        let run = try await Stickers.run(["sticker", clip.path, "-o", out.path, "--duration", "8"], environment: ["STICKERS_MODEL": model]) { process, _ in
            // Once ffmpeg runs under it (the decode has started), interrupt.
            for _ in 0..<600 where Self.children(of: process.processIdentifier).isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            try await Task.sleep(for: .milliseconds(300))
            seen.withLock { $0 = Self.children(of: process.processIdentifier) }
            kill(process.processIdentifier, SIGINT)
        }
        #expect(run.status == 130, "\(run)")
        #expect(contents(of: folder) == ["ladybird.mp4"])
        let children = seen.withLock { $0 }
        #expect(!children.isEmpty)
        // ffmpeg was killed and reaped with the work: its process ids are gone.
        for child in children { #expect(kill(child, 0) != 0, "ffmpeg \(child) still runs") }
    }

    @Test("make with clips beside photos: animated packs of their own that pass each app's rules (ffprobe, webpmux, Pillow); a second run is cached")
    func packs() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.ladybirdClip(in: folder)
        let cache = folder.appending(path: "cache").path
        for name in ["a", "b", "c"] {
            try FileManager.default.copyItem(at: clip, to: folder.appending(path: "\(name).mp4"))
        }
        let inputs = ["a", "b", "c"].map { folder.appending(path: "\($0).mp4").path } + ["coffee.png", "marigold.jpg", "ladybird.jpg"].map(Stickers.sample)
        for platform in ["telegram", "whatsapp", "signal"] {
            let out = folder.appending(path: "\(platform).\(platform == "whatsapp" ? "wastickers" : "zip")")
            let run = try await Stickers.run(["make"] + inputs + ["-o", out.path, "--for", platform, "--json", "--cache-dir", cache],
                                             environment: ["STICKERS_MODEL": model])
            #expect(run.status == 0, "\(run)")
            let animated = try #require(run.json?["animated"] as? [String: Any], "\(run)")
            let packs = try #require(animated["packs"] as? [[String: Any]])
            #expect(packs.count == 1)
            let stickers = try #require(packs.first?["stickers"] as? [[String: Any]])
            #expect(stickers.count == 3)
            for sticker in stickers {
                #expect((sticker["bytes"] as? Int ?? .max) <= (platform == "telegram" ? 256 : platform == "whatsapp" ? 500 : 300) * 1024)
                #expect((sticker["frames"] as? Int ?? 0) >= 2 && sticker["fps"] is Double && sticker["quality"] is Int)
            }
            // The first clip was cut out; the two copies (same bytes, same options) came from the cache.
            if platform == "telegram" { #expect(stickers.map { $0["cached"] as? Bool } == [false, true, true]) }
            let file = try #require(packs.first?["file"] as? String)
            let unzip = folder.appending(path: "unzipped-\(platform)")
            try #require(try await Self.run(["/usr/bin/env", "python3", "-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])",
                                       file, unzip.path]) == 0)
            let first = unzip.appending(path: try #require(stickers.first?["file"] as? String))
            switch platform {
            case "telegram":
                let ffprobe = try NeededResource.require(Self.tool("ffprobe"), "ffprobe", reason: "not on PATH")
                let probe = try await Self.output(of: [ffprobe, "-v", "error", "-show_streams", "-show_format", "-of", "json", first.path], in: folder)
                let json = try #require(try JSONSerialization.jsonObject(with: probe) as? [String: Any])
                let streams = try #require(json["streams"] as? [[String: Any]])
                #expect(streams.count == 1 && streams[0]["codec_name"] as? String == "vp9")
                let tags = streams[0]["tags"] as? [String: Any]
                #expect(tags?["alpha_mode"] as? String == "1" || tags?["ALPHA_MODE"] as? String == "1")
                let w = streams[0]["width"] as? Int ?? 0, h = streams[0]["height"] as? Int ?? 0
                #expect(max(w, h) == 512 && min(w, h) <= 512)
                let duration = Double((json["format"] as? [String: Any])?["duration"] as? String ?? "9") ?? 9
                #expect(duration <= 3.01)
            case "whatsapp":
                if let webpmux = Self.tool("webpmux") {
                    let text = String(decoding: try await Self.output(of: [webpmux, "-info", first.path], in: folder), as: UTF8.self)
                    #expect(text.contains("Canvas size: 512 x 512") && text.contains("Loop Count : 0"), "\(text)")
                }
                #expect(FileManager.default.fileExists(atPath: out.path), "the still pack stays apart")
            default:
                let pillow = try await Self.run(["/usr/bin/env", "python3", "-c",
                                           "import sys; from PIL import Image; im = Image.open(sys.argv[1]); "
                                           + "assert im.format == 'PNG' and im.is_animated and max(im.size) <= 512, im.size; "
                                           + "assert sum(im.seek(i) or im.info['duration'] for i in range(im.n_frames)) <= 3000",
                                           first.path])
                #expect(pillow == 0)
            }
        }
    }

    @Test("make --for whatsapp with too few clips for an animated pack lists each clip once, with why, beside the still pack")
    func tooFewClipsForWhatsApp() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.ladybirdClip(in: folder, seconds: 0.5)
        let truncated = folder.appending(path: "truncated.mp4")
        try Data(try Data(contentsOf: clip).prefix(2000)).write(to: truncated)
        let out = folder.appending(path: "pack.wastickers")
        let inputs = [clip.path, truncated.path] + ["coffee.png", "marigold.jpg", "ladybird.jpg"].map(Stickers.sample)
        let run = try await Stickers.run(["make"] + inputs + ["-o", out.path, "--for", "whatsapp", "--json", "--no-cache"],
                                         environment: ["STICKERS_MODEL": model])
        #expect(run.status == 0, "\(run)")
        let invalid = try #require(run.json?["invalid"] as? [[String: Any]], "\(run)")
        #expect(invalid.compactMap { $0["file"] as? String }.sorted() == [clip.path, truncated.path].sorted(), "\(invalid)")
        let reason = invalid.first { $0["file"] as? String == clip.path }?["reason"] as? String ?? ""
        #expect(reason.contains("needs at least 3"), "\(reason)")
        #expect(FileManager.default.fileExists(atPath: out.path), "the still pack is written")
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "pack-animated.wastickers").path))
    }

    @Test("make --for with too few good photos for a still pack keeps the animated pack it wrote: exit 0, each photo listed with why")
    func tooFewPhotosBesideAnAnimatedPack() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.ladybirdClip(in: folder, seconds: 1)
        let clips = try ["a", "b", "c"].map { name in
            let copy = folder.appending(path: "\(name).mp4")
            try FileManager.default.copyItem(at: clip, to: copy)
            return copy.path
        }
        let broken = folder.appending(path: "broken.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]).write(to: broken)
        let cache = folder.appending(path: "cache").path
        // WhatsApp: one good photo (a still pack needs 3) beside three clips; Telegram: no good photo.
        for (platform, photos, listed) in [("whatsapp", [Stickers.sample("ladybird.jpg"), broken.path], 2), ("telegram", [broken.path], 1)] {
            let out = folder.appending(path: "pack-\(platform).zip")
            let run = try await Stickers.run(["make"] + photos + clips + ["-o", out.path, "--for", platform, "--json", "--cache-dir", cache],
                                             environment: ["STICKERS_MODEL": model])
            #expect(run.status == 0, "\(run)")
            let packs = try #require((run.json?["animated"] as? [String: Any])?["packs"] as? [[String: Any]], "\(run)")
            #expect((packs.first?["stickers"] as? [[String: Any]])?.count == 3)
            let invalid = try #require(run.json?["invalid"] as? [[String: Any]])
            #expect(invalid.count == listed, "\(invalid)")
            #expect(invalid.contains { ($0["file"] as? String)?.hasSuffix("broken.jpg") == true })
            if platform == "whatsapp" {
                #expect(invalid.contains { ($0["reason"] as? String)?.contains("no still pack was written") == true }, "\(invalid)")
            }
            #expect(!FileManager.default.fileExists(atPath: out.path), "no still pack")
            #expect(FileManager.default.fileExists(atPath: folder.appending(path: "pack-\(platform)-animated.zip").path), "\(contents(of: folder))")
        }
    }

    @Test("SIGINT while make cuts a clip out exits 130, writes no pack and leaves no ffmpeg behind")
    func makeInterruptedDuringAClip() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try await Self.ladybirdClip(in: folder, seconds: 8)
        let out = folder.appending(path: "pack.zip")
        let seen = Locked<[Int32]>([])
        let run = try await Stickers.run(["make", clip.path, Stickers.sample("ladybird.jpg"), "-o", out.path, "--for", "telegram",
                                          "--cache-dir", folder.appending(path: "cache").path],
                                         environment: ["STICKERS_MODEL": model]) { process, _ in
            for _ in 0..<600 where Self.children(of: process.processIdentifier).isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            try await Task.sleep(for: .milliseconds(300))
            seen.withLock { $0 = Self.children(of: process.processIdentifier) }
            kill(process.processIdentifier, SIGINT)
        }
        #expect(run.status == 130, "\(run)")
        #expect(contents(of: folder).filter { $0.hasPrefix("pack") }.isEmpty, "\(contents(of: folder))")
        let children = seen.withLock { $0 }
        #expect(!children.isEmpty)
        for child in children { #expect(kill(child, 0) != 0, "ffmpeg \(child) still runs") }
    }

    /// The process ids whose parent is `pid` (from /proc).
    static func children(of pid: Int32) -> [Int32] {
        let all = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return all.compactMap { Int32($0) }.filter { child in
            guard let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == pid
        }
    }
}
