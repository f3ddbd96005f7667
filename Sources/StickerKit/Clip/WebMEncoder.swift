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
    private let exit: ChildExit
    private let input: PipeEnd
    private let log: ErrorLog
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
        let input = Pipe(), log = ErrorLog()
        self.input = PipeEnd(input.fileHandleForWriting, reading: false)
        self.log = log
        (process, exit) = try ffmpeg.start(arguments, input: input, output: FileHandle.nullDevice, log: log)
    }

    deinit { cancel() }

    /// Writes one frame, suspending (never blocking a pool thread: `PipeEnd`) while ffmpeg catches
    /// up: the pipe is the bound.
    /// Cancelling the task kills ffmpeg, which ends the wait.
    public func add(_ image: Image) async throws(ClipError) {
        precondition(image.width == width && image.height == height, "a frame differs from the canvas")
        let pid = process.processIdentifier, input = input
        let ok = await withTaskCancellationHandler {
            await input.write(image.pixels)
        } onCancel: { kill(pid, SIGKILL) }
        guard ok else { throw .encoding("ffmpeg stopped reading frames: \(await finishText())") }
        frameCount += 1
    }

    /// Ends the stream and awaits ffmpeg finishing the file.
    public func finish() async throws(ClipError) {
        input.closeHandle()
        let pid = process.processIdentifier
        let status = await withTaskCancellationHandler { await exit.status() } onCancel: { kill(pid, SIGKILL) }
        guard status == 0 else { throw .encoding("ffmpeg (libvpx-vp9): \(log.text())") }
    }

    private func finishText() async -> String {
        input.closeHandle()
        _ = await exit.status()
        return log.text()
    }

    /// Kills ffmpeg if it still runs and awaits its end (it is reaped before the work returns).
    public func stop() async {
        cancel()
        _ = await exit.status()
    }

    /// Kills ffmpeg if it still runs; Foundation reaps it (nothing waits, so `deinit` may call this).
    public func cancel() {
        guard !exit.hasEnded else { return }
        kill(process.processIdentifier, SIGKILL)
    }
}
