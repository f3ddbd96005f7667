import Foundation

/// What ffprobe says about a clip's video: its first video stream that is not a cover picture
/// (`ClipDetection.videoStream`, the one every probe and decode of the clip reads).
public struct ClipInfo: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Frames per second (the stream's average rate; its nominal rate when the average is unknown).
    public var framesPerSecond: Double
    /// Seconds, when the container says.
    public var duration: Double?

    public init(width: Int, height: Int, framesPerSecond: Double, duration: Double?) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.duration = duration
    }

    /// Probes `clip` with `ffprobe -show_streams -show_format -of json`.
    public static func probe(_ clip: URL) async throws(ClipError) -> ClipInfo {
        let ffprobe = try ExternalTool.find("ffprobe")
        let result = try await ffprobe.run(["-v", "error", "-select_streams", ClipDetection.videoStream, "-show_entries",
                                            "stream=width,height,avg_frame_rate,r_frame_rate,duration:stream_side_data=rotation:stream_tags=rotate,DURATION:format=duration",
                                            "-of", "json"] + ClipDetection.inputFormatArguments(clip) + [clip.path])
        guard result.status == 0 else {
            throw .unreadable(result.errors.isEmpty ? "ffprobe exit status \(result.status)" : result.errors)
        }
        return try parse(result.output)
    }

    /// ffprobe's JSON read; a clip without a video stream or with no size is unreadable.
    static func parse(_ json: Data) throws(ClipError) -> ClipInfo {
        struct Output: Decodable {
            struct Stream: Decodable {
                struct SideData: Decodable { var rotation: Double? }
                var width: Int?, height: Int?
                var avg_frame_rate: String?, r_frame_rate: String?, duration: String?
                struct Tags: Decodable { var rotate: String?, DURATION: String? }
                var side_data_list: [SideData]?
                var tags: Tags?
            }
            struct Format: Decodable { var duration: String? }
            var streams: [Stream]?
            var format: Format?
        }
        guard let output = try? JSONDecoder().decode(Output.self, from: json),
              let stream = output.streams?.first else { throw .unreadable("no video stream") }
        guard var width = stream.width, var height = stream.height, width > 0, height > 0 else {
            throw .unreadable("the video stream has no frame size")
        }
        // A phone's portrait video is stored sideways with a rotation to show it by (a display
        // matrix; older files a `rotate` tag). ffmpeg turns the frames upright as it decodes them,
        // so the frames, and the masks at "the clip's size", have the shown size.
        let rotation = stream.side_data_list?.lazy.compactMap(\.rotation).first ?? stream.tags?.rotate.flatMap(Double.init) ?? 0
        if abs(abs(rotation.remainder(dividingBy: 180)) - 90) < 1 { swap(&width, &height) }
        func rate(_ text: String?) -> Double? {
            guard let parts = text?.split(separator: "/"), let n = Double(parts.first ?? "") else { return nil }
            let d = parts.count > 1 ? Double(parts[1]) ?? 0 : 1
            let value = d > 0 ? n / d : 0
            return value.isFinite && value > 0 && value <= 1000 ? value : nil
        }
        let fps = rate(stream.avg_frame_rate) ?? rate(stream.r_frame_rate) ?? 25
        // The video's own length: the stream's, or Matroska's per-track tag (`00:00:03.040000000`);
        // the container's only without either (it may be the longer audio's).
        let duration = Double(stream.duration ?? "") ?? stream.tags?.DURATION.flatMap(Self.clockSeconds) ?? Double(output.format?.duration ?? "")
        return ClipInfo(width: width, height: height, framesPerSecond: fps, duration: duration.flatMap { $0 > 0 ? $0 : nil })
    }
}

extension ClipInfo {
    /// `HH:MM:SS.fraction` in seconds.
    static func clockSeconds(_ text: String) -> Double? {
        let parts = text.split(separator: ":")
        guard parts.count == 3, let h = Double(parts[0]), let m = Double(parts[1]), let sec = Double(parts[2]) else { return nil }
        return h * 3600 + m * 60 + sec
    }
}

/// The part of a clip a sticker uses.
public struct ClipPiece: Sendable, Hashable {
    /// Seconds from the start.
    public var start: Double
    /// Seconds.
    public var duration: Double

    public init(start: Double = 0, duration: Double = 3) {
        self.start = max(0, start)
        self.duration = max(0, duration)
    }

    /// The start as ffmpeg is given it (`-ss`, whole milliseconds).
    var seekSeconds: Double { (start * 1000).rounded() / 1000 }

    /// The source frames this piece of a clip `info` describes should hold, when its container says
    /// how long it is.
    public func expectedFrameCount(info: ClipInfo) -> Int? {
        guard let length = info.duration else { return nil }
        let seconds = min(duration, max(0, length - seekSeconds))
        return Int((seconds * info.framesPerSecond).rounded(.down))
    }

    /// The 0-based index of the piece's first frame in a clip whose frames start at `frameStarts`
    /// (seconds: a GIF's or APNG's own timeline): the first that starts at or after `start`.
    public func firstFrameIndex<Starts: Collection<Double>>(frameStarts: Starts) -> Int {
        (frameStarts.firstIndex { $0 >= seekSeconds - 1e-6 }).map { frameStarts.distance(from: frameStarts.startIndex, to: $0) } ?? frameStarts.count
    }

    /// The 0-based index, in the whole clip, of the piece's first frame: the first that starts at
    /// or after `start` (ffmpeg drops every frame before the seek point, even one still showing
    /// there), so `--start 0.51` of a 30 fps clip begins at frame 16, not 15. A thousandth of a
    /// frame's slack for timestamps rounded to the stream's time base.
    public func firstFrameIndex(framesPerSecond: Double) -> Int {
        max(0, Int((seekSeconds * framesPerSecond - 0.001).rounded(.up)))
    }
}
