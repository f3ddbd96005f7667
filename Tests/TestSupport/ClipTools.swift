import Foundation
import Testing

/// The independent tools the clip tests check against (ffmpeg, ffprobe, webpmux, Pillow), run as
/// child processes; a test that needs one fails in CI and is skipped elsewhere when it is missing.
public enum ClipTools {
    public static func path(_ tool: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    public static func require(_ tool: String) throws -> String {
        try NeededResource.require(path(tool), tool, reason: "not on PATH (apt-get install ffmpeg webp)")
    }

    /// Runs `arguments` (through /usr/bin/env) to the end without holding a thread while it runs
    /// (there is no blocking variant): `Process.waitUntilExit` blocks one of the few cooperative
    /// threads, and a test process whose threads all wait so starves whatever else it serves (an
    /// in-process fake server timed out so). Standard output and error.
    @discardableResult
    public static func runToEnd(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let child = try Child(arguments)
        defer { child.remove() }
        let ended = AsyncStream<Void>.makeStream()
        child.process.terminationHandler = { _ in ended.continuation.yield(); ended.continuation.finish() }
        try child.process.run()
        for await _ in ended.stream {}
        return try child.outcome()
    }

    /// A child process through /usr/bin/env, its output and errors to files (a chatty tool never
    /// blocks on a full pipe).
    private struct Child {
        let process = Process()
        let out: URL
        let err: URL

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
            let scratch = FileManager.default.temporaryDirectory.appending(path: "clip-tool-\(UUID().uuidString)")
            out = URL(fileURLWithPath: scratch.path + ".out")
            err = URL(fileURLWithPath: scratch.path + ".err")
            _ = FileManager.default.createFile(atPath: out.path, contents: nil)
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: out)
            process.standardError = try FileHandle(forWritingTo: err)
            process.standardInput = FileHandle.nullDevice
        }

        func outcome() throws -> (status: Int32, output: String, errors: String) {
            (process.terminationStatus, String(decoding: try Data(contentsOf: out), as: UTF8.self),
             String(decoding: try Data(contentsOf: err), as: UTF8.self))
        }

        func remove() {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
    }

    /// A test clip made by ffmpeg: a red disc moving left to right over a grey, slowly shifting
    /// ground, `seconds` long at `fps`.
    public static func movingDisc(in folder: URL, name: String = "disc.mp4", width: Int = 160, height: Int = 120,
                           fps: Int = 20, seconds: Double = 1) async throws -> URL {
        let ffmpeg = try require("ffmpeg")
        let url = folder.appending(path: name)
        let disc = "geq=r='if(lt(hypot(X-(20+T*90),Y-60),22),230,110+X/8)':g='if(lt(hypot(X-(20+T*90),Y-60),22),30,110+X/8)':b='if(lt(hypot(X-(20+T*90),Y-60),22),30,110+X/8)'"
        var arguments = [ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=gray:s=\(width)x\(height):r=\(fps):d=\(seconds)",
                         "-vf", disc]
        arguments += name.hasSuffix(".gif") ? [] : ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-crf", "18"]
        arguments.append(url.path)
        let made = try await runToEnd(arguments)
        try #require(made.status == 0, "ffmpeg could not make the test clip: \(made.errors)")
        return url
    }

    /// A GIF drawn by Pillow: the red disc moving left to right over a grey ground, one frame per
    /// delay (milliseconds, whole hundredths), each frame showing its own.
    public static func discGIF(in folder: URL, delays: [Int], name: String = "delays.gif") async throws -> URL {
        let url = folder.appending(path: name)
        let script = """
        import sys
        from PIL import Image, ImageDraw
        delays = [int(d) for d in sys.argv[2].split(',')]
        frames = []
        for k in range(len(delays)):
            im = Image.new('RGB', (160, 120))
            draw = ImageDraw.Draw(im)
            for x in range(160): draw.line([(x, 0), (x, 119)], fill=(110 + x // 8,) * 3)
            cx = 20 + 100 * k / max(1, len(delays) - 1)
            draw.ellipse([cx - 22, 38, cx + 22, 82], fill=(230, 30, 30))
            frames.append(im)
        frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=delays, loop=0, optimize=False, disposal=1)
        """
        let made = try await runToEnd(["python3", "-c", script, url.path, delays.map(String.init).joined(separator: ",")])
        try #require(made.status == 0, "Pillow could not make the GIF: \(made.errors)")
        return url
    }

    /// Each frame's duration (ms) in an animated WebP, as webpmux's table gives them (a row per
    /// frame, its duration the 6th number).
    public static func webpDurations(_ file: URL) async throws -> [Int] {
        let info = try await runToEnd([try require("webpmux"), "-info", file.path])
        try #require(info.status == 0, "webpmux -info: \(info.errors)")
        return info.output.split(separator: "\n").filter { $0.contains("lossy") || $0.contains("lossless") }
            .compactMap { $0.split(separator: " ").dropFirst(6).first.flatMap { Int($0) } }
    }

    /// Pillow's view of an animated image: frame count, per-frame durations, size, loop.
    public static func pillowInfo(_ file: URL) async throws -> [String: Any] {
        let script = """
        import json, sys
        from PIL import Image
        im = Image.open(sys.argv[1]); durations = []
        for i in range(getattr(im, 'n_frames', 1)):
            im.seek(i); durations.append(im.info.get('duration'))
        print(json.dumps(dict(format=im.format, frames=getattr(im, 'n_frames', 1), animated=getattr(im, 'is_animated', False),
                              size=list(im.size), durations=durations, loop=im.info.get('loop'), mode=im.mode)))
        """
        let result = try await runToEnd(["python3", "-c", script, file.path])
        try #require(result.status == 0, "Pillow cannot read \(file.lastPathComponent): \(result.errors)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }
}
