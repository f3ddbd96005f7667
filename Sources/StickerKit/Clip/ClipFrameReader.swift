import Foundation
import Raster

/// The frames of a piece of a clip, streamed from an `ffmpeg` child process one at a time as raw
/// RGBA (`-ss S -i CLIP -t D -f rawvideo -pix_fmt rgba -`): ffmpeg decodes the next frame while the
/// caller works on this one and then waits on the pipe, so at most a frame or two exist at once
/// whatever the clip's length, and `-ss` before `-i` seeks without decoding what comes before.
///
/// Owned by one task (not Sendable). Cancelling that task while it waits for a frame kills ffmpeg;
/// `close()` (or the reader's end) does too, so no ffmpeg outlives the work that asked for it.
public final class ClipFrameReader {
    /// The size frames are delivered at (ffmpeg scales them down when asked to).
    public let width: Int
    public let height: Int
    private let process: Process
    private let exit: ChildExit
    private let pipe: PipeEnd
    private let log: ErrorLog
    private var finished = false

    /// Starts ffmpeg on `clip`'s `piece`, frames scaled to `width`×`height` (the clip's own size: no scaling).
    public init(clip: URL, info: ClipInfo, piece: ClipPiece, width: Int, height: Int) throws(ClipError) {
        let ffmpeg = try ExternalTool.find("ffmpeg")
        self.width = width
        self.height = height
        var arguments = ["-v", "error", "-nostdin"]
        if piece.start > 0 { arguments += ["-ss", String(format: "%.3f", piece.start)] }
        arguments += ["-i", clip.path, "-t", String(format: "%.3f", piece.duration), "-an", "-sn"]
        // Every source frame once, no duplicates or drops (a GIF's variable frame times included).
        arguments += ["-fps_mode", "passthrough"]
        if width != info.width || height != info.height {
            arguments += ["-vf", "scale=\(width):\(height):flags=area"]
        }
        arguments += ["-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let pipe = Pipe(), log = ErrorLog()
        self.pipe = PipeEnd(pipe.fileHandleForReading, reading: true)
        self.log = log
        (process, exit) = try ffmpeg.start(arguments, input: FileHandle.nullDevice, output: pipe, log: log)
    }

    deinit { close() }

    /// The next frame, or nil at the end of the piece. Throws `.unreadable` when ffmpeg fails or
    /// stops inside a frame (a truncated or corrupt clip).
    public func next() async throws(ClipError) -> Image? {
        guard !finished else { return nil }
        let count = width * height * 4
        let pid = process.processIdentifier
        // The pipe is read by a thread of its own (`PipeEnd`): no pool thread waits while ffmpeg
        // decodes, and the pipe stays the only buffer, so ffmpeg is at most a frame or so ahead.
        // Cancellation kills ffmpeg, which ends the read at once.
        let pixels = await withTaskCancellationHandler { await pipe.read(count: count) } onCancel: { kill(pid, SIGKILL) }
        if pixels.count == count { return Image(width: width, height: height, pixels: pixels) }
        finished = true
        let status = await exit.status()
        if Task.isCancelled { return nil }
        guard status == 0, pixels.isEmpty else {
            let reason = log.text()
            throw .unreadable(reason.isEmpty ? (!pixels.isEmpty ? "the stream ends inside a frame" : "ffmpeg exit status \(status)") : reason)
        }
        return nil
    }

    /// Stops ffmpeg if it still runs and awaits its end, so it is reaped before the work returns
    /// (a process that exits right after, as on Ctrl-C, leaves no ffmpeg behind).
    public func stop() async {
        close()
        _ = await exit.status()
    }

    /// Stops ffmpeg if it still runs. Nothing waits for it: Foundation reaps it when it has gone
    /// (its `terminationHandler`), so this is safe from `deinit` and from any thread.
    public func close() {
        finished = true
        guard !exit.hasEnded else { return }
        kill(process.processIdentifier, SIGKILL)
    }
}
