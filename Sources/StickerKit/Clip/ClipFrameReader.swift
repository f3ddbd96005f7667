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
    private let pipe: Pipe
    private let log = ErrorLog()
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
        process = Process()
        process.executableURL = ffmpeg.url
        process.arguments = arguments
        pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        process.standardError = log.handle
        do { try process.run() } catch { throw .toolMissing("ffmpeg") }
    }

    deinit { close() }

    /// The next frame, or nil at the end of the piece. Throws `.unreadable` when ffmpeg fails or
    /// stops inside a frame (a truncated or corrupt clip).
    public func next() async throws(ClipError) -> Image? {
        guard !finished else { return nil }
        let count = width * height * 4
        let fd = pipe.fileHandleForReading.fileDescriptor
        let pid = process.processIdentifier
        // A blocking read(2) on the pipe, on this task's thread: ffmpeg is decoding the frame
        // while we wait, and Foundation has no asynchronous pipe read on Linux that does not
        // buffer without bound (readabilityHandler pushes as fast as ffmpeg writes). The wait is
        // one frame's decode; cancellation kills ffmpeg, which ends the read at once.
        let (pixels, filled) = await withTaskCancellationHandler {
            var filled = 0
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                while filled < count {
                    let n = read(fd, buffer.baseAddress! + filled, count - filled)
                    if n > 0 { filled += n } else if n < 0 && errno == EINTR { continue } else { break }
                }
                initialized = filled
            }
            return (pixels, filled)
        } onCancel: {
            kill(pid, SIGKILL)
        }
        if filled == count { return Image(width: width, height: height, pixels: pixels) }
        finished = true
        process.waitUntilExit()
        if Task.isCancelled { return nil }
        let status = process.terminationStatus
        guard status == 0, filled == 0 else {
            let reason = log.text()
            throw .unreadable(reason.isEmpty ? (filled > 0 ? "the stream ends inside a frame" : "ffmpeg exit status \(status)") : reason)
        }
        return nil
    }

    /// Stops ffmpeg (if it still runs) and waits for it.
    public func close() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        finished = true
    }
}
