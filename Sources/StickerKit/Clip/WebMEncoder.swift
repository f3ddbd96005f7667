import Foundation
import Raster

/// A WebM (VP9 with alpha, `yuva420p`, no audio) encoded by an `ffmpeg` child process fed raw RGBA
/// frames on its standard input, as Telegram's video stickers need. ffmpeg writes to `output`
/// (the caller's temporary file); the frames are written as they come, never all held.
/// Owned by one task; `cancel()` (or the end of the encoder unfinished) kills ffmpeg.
public final class WebMEncoder {
    public let width: Int
    public let height: Int
    private let process: Process
    private let input: Pipe
    private let log = ErrorLog()
    public private(set) var frameCount = 0

    /// - Parameters:
    ///   - framesPerSecond: the frame rate (constant: each frame lasts 1/fps).
    ///   - bitrate: kilobits per second (the size target's dial); nil: constant quality `crf`.
    public init(output: URL, width: Int, height: Int, framesPerSecond: Double, bitrate: Int? = nil, crf: Int = 32) throws(ClipError) {
        let ffmpeg = try ExternalTool.find("ffmpeg")
        // A write to ffmpeg after it died must fail with EPIPE (reported as an encoding error),
        // not kill this process with SIGPIPE: the default action is wrong for any pipe we write.
        signal(SIGPIPE, SIG_IGN)
        self.width = width
        self.height = height
        var arguments = ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
                         "-r", String(format: "%.4f", framesPerSecond), "-i", "-",
                         "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-an", "-deadline", "good", "-cpu-used", "4",
                         "-row-mt", "1", "-auto-alt-ref", "0"]
        if let bitrate { arguments += ["-b:v", "\(bitrate)k", "-maxrate", "\(bitrate)k", "-bufsize", "\(bitrate * 2)k"] }
        else { arguments += ["-crf", "\(crf)", "-b:v", "0"] }
        arguments += ["-f", "webm", output.path]
        process = Process()
        process.executableURL = ffmpeg.url
        process.arguments = arguments
        input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = log.handle
        do { try process.run() } catch { throw .toolMissing("ffmpeg") }
    }

    deinit { cancel() }

    /// Writes one frame (blocking while ffmpeg catches up: the pipe is the bound).
    public func add(_ image: Image) throws(ClipError) {
        precondition(image.width == width && image.height == height, "a frame differs from the canvas")
        let fd = input.fileHandleForWriting.fileDescriptor
        let ok = image.pixels.withUnsafeBytes { raw -> Bool in
            var done = 0
            while done < raw.count {
                let n = write(fd, raw.baseAddress! + done, raw.count - done)
                if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return false }
            }
            return true
        }
        guard ok else { throw .encoding("ffmpeg stopped reading frames: \(finishText())") }
        frameCount += 1
    }

    /// Ends the stream and waits for ffmpeg to finish the file.
    public func finish() throws(ClipError) {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw .encoding("ffmpeg (libvpx-vp9): \(log.text())") }
    }

    private func finishText() -> String {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        return log.text()
    }

    /// Kills ffmpeg if it still runs.
    public func cancel() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
