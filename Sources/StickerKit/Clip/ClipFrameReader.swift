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
    public private(set) var width: Int
    public private(set) var height: Int
    private let process: Process
    private let exit: ChildExit
    private let pipe: PipeEnd
    private let log: ErrorLog
    private var finished = false
    /// Frames delivered so far.
    public private(set) var framesDelivered = 0
    /// The frames the piece should hold, when the container says how long the clip is: a stream
    /// that ends well short of it while ffmpeg reports errors is a clip cut short (ffmpeg ends a
    /// truncated Matroska file or an MP4 whose data breaks off with exit status 0).
    public var expectedFrameCount: Int?

    /// Starts ffmpeg on `clip`'s `piece`, frames scaled to `width`×`height` (the clip's own size: no scaling).
    public convenience init(clip: URL, info: ClipInfo, piece: ClipPiece, width: Int, height: Int) throws(ClipError) {
        let scale = width != info.width || height != info.height ? "scale=\(width):\(height):flags=area" : nil
        try self.init(clip: clip, piece: piece, scale: scale, width: width, height: height, seeksByDecoding: false)
    }

    /// Starts ffmpeg on `clip`'s `piece` before its size is known, each frame fitted within
    /// `maximumSide` (never enlarged) by the rule `fittedSize` computes, evaluated by ffmpeg on the
    /// frames it decodes (turned upright): so ffmpeg starts while ffprobe reads the clip (each
    /// takes ~0.06-0.1 s to start). Call `expectFrames` with `fittedSize` of the probed size
    /// before the first `next()`. `seeksByDecoding`: the piece's start is reached by decoding every
    /// frame before it (`-ss` after `-i`), for a file whose seek lands where nothing decodes.
    /// `decoder`: the arguments naming the decoder before `-i` (`ClipDetection.availableDecoderArguments`);
    /// nil: as the clip's head asks (`ClipDetection.inputDecoderArguments`).
    public convenience init(clip: URL, piece: ClipPiece, fittingIn maximumSide: Int, seeksByDecoding: Bool = false,
                            decoder: [String]? = nil) throws(ClipError) {
        // Double arithmetic in the order `fittedSize` uses, and C's round (half away from zero).
        let fit = "min(1,\(maximumSide)/max(iw,ih))"
        try self.init(clip: clip, piece: piece, scale: "scale=w='max(2,round(iw*\(fit)))':h='max(2,round(ih*\(fit)))':flags=area",
                      width: 0, height: 0, seeksByDecoding: seeksByDecoding, decoder: decoder)
    }

    /// The size a `width`×`height` clip's frames are fitted to within `maximumSide`.
    public static func fittedSize(width: Int, height: Int, maximumSide: Int) -> (width: Int, height: Int) {
        let scale = min(1, Double(maximumSide) / Double(max(width, height)))
        return (max(2, Int((Double(width) * scale).rounded())), max(2, Int((Double(height) * scale).rounded())))
    }

    /// The frames' size, for a reader started `fittingIn` a side.
    public func expectFrames(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    private init(clip: URL, piece: ClipPiece, scale: String?, width: Int, height: Int, seeksByDecoding: Bool,
                 decoder: [String]? = nil) throws(ClipError) {
        let ffmpeg = try ExternalTool.find("ffmpeg")
        self.width = width
        self.height = height
        var arguments = ["-v", "error", "-nostdin"]
        let seek = piece.seekSeconds > 0 ? ["-ss", String(format: "%.3f", piece.seekSeconds)] : []
        if !seeksByDecoding { arguments += seek }
        arguments += ClipDetection.inputFormatArguments(clip) + (decoder ?? ClipDetection.inputDecoderArguments(clip)) + ["-i", clip.path]
        if seeksByDecoding { arguments += seek }
        arguments += ["-map", "0:" + ClipDetection.videoStream, "-t", String(format: "%.3f", piece.duration)]
        // Every source frame once, no duplicates or drops (a GIF's variable frame times included).
        arguments += ["-fps_mode", "passthrough"]
        if let scale { arguments += ["-vf", scale] }
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
        precondition(width > 0 && height > 0, "expectFrames(width:height:) before the first frame")
        let count = width * height * 4
        let pid = process.processIdentifier
        // The pipe is read by a thread of its own (`PipeEnd`): no pool thread waits while ffmpeg
        // decodes, and the pipe stays the only buffer, so ffmpeg is at most a frame or so ahead.
        // Cancellation kills ffmpeg, which ends the read at once.
        let pixels = await withTaskCancellationHandler { await pipe.read(count: count) } onCancel: { kill(pid, SIGKILL) }
        if pixels.count == count {
            framesDelivered += 1
            return Image(width: width, height: height, pixels: pixels)
        }
        finished = true
        let status = await exit.status()
        if Task.isCancelled { return nil }
        let reason = log.text()
        guard status == 0, pixels.isEmpty else {
            throw .unreadable(reason.isEmpty ? (!pixels.isEmpty ? "the stream ends inside a frame" : "ffmpeg exit status \(status)") : reason)
        }
        if !reason.isEmpty, let expected = expectedFrameCount, Self.endsShort(delivered: framesDelivered, expected: expected) {
            let last = reason.components(separatedBy: "; ").last ?? reason
            throw .unreadable("it ends early: \(framesDelivered) of its \(expected) frames decode (ffmpeg: \(last))")
        }
        return nil
    }

    /// Whether `delivered` frames fall short of `expected` by more than a container's rounding of
    /// its duration (a frame or two, or a tenth on a long piece).
    static func endsShort(delivered: Int, expected: Int) -> Bool {
        delivered < expected - max(2, expected / 10)
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

// Beside the reader, not in ClipDetection.swift: that file is built alone into a fuzz target, without ExternalTool.
extension ClipDetection {
    /// `inputDecoderArguments`, when this machine's ffmpeg has that decoder. An ffmpeg built
    /// without libvpx (a static build, another distribution's) would fail on "Unknown decoder":
    /// its own VP9 or VP8 decoder reads the clip then, opaque, and the subject is found as in any
    /// clip. ffmpeg's list of decoders is read only for a clip that asks for libvpx; when it
    /// cannot be read, the arguments stand (ffmpeg's own message names what is missing).
    public static func availableDecoderArguments(_ clip: URL) async -> [String] {
        let wanted = inputDecoderArguments(clip)
        guard let name = wanted.last, let ffmpeg = try? ExternalTool.find("ffmpeg"),
              let listed = try? await ffmpeg.run(["-hide_banner", "-decoders"]), listed.status == 0 else { return wanted }
        return listsDecoder(name, in: String(decoding: listed.output, as: UTF8.self)) == false ? [] : wanted
    }
}
