import Foundation

/// A video's own timing, when it is not a constant frame rate: a phone records at a variable rate
/// (fewer frames a second in dim light, a frame dropped when it is busy), and its frames, timed at
/// the average rate, would play fast where it slowed and slow where it sped up.
extension AnimatedImageTimeline {
    /// The frames' presentation times of `clip`'s video stream (`ClipDetection.videoStream`) up to `until` seconds (its
    /// packets' listed by ffprobe, no frame decoded; the file read to a second past that point
    /// only: ~0.1 s for all of a 60 s 1080p clip), as a timeline from the clip's start (ffmpeg's
    /// `-ss` clock), when they are unevenly spaced; nil for an even rate (timed at it, as before)
    /// or when the times cannot be read (the same). `evenRate`: an even video's rate by its frames'
    /// times (an MP4 whose edit list cuts frames away has an average rate that counts them).
    static func variableRate(of clip: URL, until: Double) async -> (timeline: AnimatedImageTimeline?, evenRate: Double?) {
        guard let ffprobe = try? ExternalTool.find("ffprobe"),
              let result = try? await ffprobe.run(["-v", "error", "-select_streams", ClipDetection.videoStream,
                                                   "-read_intervals", String(format: "%%+%.3f", until + 1),
                                                   "-show_entries", "packet=pts_time,flags:format=start_time", "-of", "json"]
                                                  + ClipDetection.inputFormatArguments(clip) + [clip.path]),
              result.status == 0 else { return (nil, nil) }
        struct Output: Decodable {
            struct Packet: Decodable { var pts_time: String?, flags: String? }
            struct Format: Decodable { var start_time: String? }
            var packets: [Packet]?
            var format: Format?
        }
        guard let output = try? JSONDecoder().decode(Output.self, from: result.output) else { return (nil, nil) }
        // Packets an MP4's edit list cuts away (flag D) are listed, but never decoded.
        let times = (output.packets ?? []).filter { !($0.flags ?? "").contains("D") }.map { $0.pts_time.flatMap(Double.init) }
        // A packet without a time (a raw stream's) leaves the frames' times unknown.
        guard !times.contains(nil) else { return (nil, nil) }
        let known = times.compactMap(\.self)
        let timeline = variableRate(presentationTimes: known, start: output.format?.start_time.flatMap(Double.init) ?? 0)
        return (timeline, timeline == nil ? evenRate(presentationTimes: known) : nil)
    }

    /// Frames a second of frames presented at `presentationTimes` (any order), by the median frame.
    static func evenRate(presentationTimes: [Double]) -> Double? {
        let times = presentationTimes.sorted()
        let seconds = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
        guard !seconds.isEmpty else { return nil }
        let rate = 1 / seconds[seconds.count / 2]
        return rate.isFinite && rate <= 1000 ? rate : nil
    }

    /// The timeline of frames presented at `presentationTimes` (any order: a stream with B-frames
    /// lists them in decoding order), from `start`, when some frame lasts more than a fifth longer
    /// or shorter than the median frame; nil when they are even, or two share a time. The last frame
    /// lasts the median.
    static func variableRate(presentationTimes: [Double], start: Double) -> AnimatedImageTimeline? {
        let times = presentationTimes.sorted()
        guard times.count >= 3, let first = times.first, first.isFinite, times.last!.isFinite else { return nil }
        let seconds = zip(times, times.dropFirst()).map { $1 - $0 }
        guard seconds.allSatisfy({ $0 > 0 }) else { return nil }
        let median = seconds.sorted()[seconds.count / 2]
        guard seconds.contains(where: { abs($0 - median) > 0.2 * median }) else { return nil }
        return AnimatedImageTimeline(frameSeconds: seconds + [median], firstStart: max(0, first - start))
    }
}
