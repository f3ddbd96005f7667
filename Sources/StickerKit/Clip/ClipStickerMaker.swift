import Foundation
import Raster

/// The animated formats a clip becomes.
public enum AnimatedFormat: Sendable, Hashable {
    /// Animated WebP, lossy frames at this quality (0…100), looping forever.
    case webp(quality: Float)
    /// APNG, looping forever.
    case apng
    /// WebM, VP9 with alpha, at this bitrate (kbit/s) or, nil, a constant quality.
    case webm(bitrate: Int?)

    /// The format a file name asks for (`.webp`, `.webm`, `.png`/`.apng`), at its default settings.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "webp": self = .webp(quality: 80)
        case "webm": self = .webm(bitrate: nil)
        case "png", "apng": self = .apng
        default: return nil
        }
    }
}

/// How an animated sticker's canvas is sized.
public struct CanvasFit: Sendable, Hashable {
    /// Its longer side at most this.
    public var maximumSide = 512
    /// The longer side exactly `maximumSide` (Telegram: one side 512).
    public var exactSide = false
    /// A square canvas of `maximumSide` (WhatsApp: 512×512), the sticker centred.
    public var square = false
    public init(maximumSide: Int = 512, exactSide: Bool = false, square: Bool = false) {
        self.maximumSide = maximumSide
        self.exactSide = exactSide
        self.square = square
    }
}

/// What was made.
public struct AnimatedStickerSummary: Sendable, Hashable, Codable {
    public var width: Int
    public var height: Int
    public var frames: Int
    public var framesPerSecond: Double
    public var bytes: Int
}

/// A clip (or a piece of it) made into an animated sticker: the frames stream from ffmpeg
/// (`ClipFrameReader`) through the subject tracker (`ClipSubjectTracker`) and the sticker style to
/// the encoder, a few frames at a time; memory does not grow with the clip's length. Two passes:
/// the first looks at each frame (the network, the subject followed, the background's motion) and
/// keeps a few frames for a plate of the background; the second cuts each frame out along its
/// look and the plate. Between them a frame keeps ~100 kB (its look), and its pixels while the
/// piece's fit in `keptFramesBudget`; past that, the second pass decodes the piece again.
public struct ClipStickerMaker: Sendable {
    public var predictor: any SaliencyPredicting
    public var style: StickerStyle
    public var tracking = ClipSubjectTracker.Settings()
    /// Frames are decoded at most this large on their longer side (ffmpeg scales them): the
    /// sticker is at most 512 px, so a 1080p clip is cut out at 768 px.
    public var workingSide = 768
    /// The sticker's frame rate at most this: source frames are skipped evenly above it.
    public var maximumFramesPerSecond: Double = 15
    public var canvas = CanvasFit()
    /// Frames larger than this are refused before one is read (ffmpeg, started beside the probe,
    /// is stopped).
    public var maximumPixelCount = 40_000_000
    /// The frames the first pass keeps for the second, at most this many bytes in all (56 MiB): a
    /// piece whose used frames fit by its length (3 s of 640 × 480 at 15 fps: 46 frames, 57 MB) is
    /// decoded once; a larger one keeps none and the second pass decodes the piece again (a
    /// second ffmpeg: ~0.1 s of start-up and the decode's CPU again), and one that outgrows its
    /// estimate lets its frames go at once. A 3 s piece of a 1080p clip (768 × 432: 61 MB) is
    /// decoded twice: kept under a larger budget, its peak rose from 341 to 428 MB.
    /// Output is the same either way, so the cache key leaves it out.
    public var keptFramesBudget = 56 << 20

    public init(predictor: any SaliencyPredicting, style: StickerStyle = StickerStyle()) {
        self.predictor = predictor
        self.style = style
    }

    /// One frame's alpha at the clip's size, with its 0-based index among the clip's frames.
    public typealias MaskHandler = @Sendable (_ sourceIndex: Int, _ alpha: Mask) async throws -> Void

    /// Makes the sticker of `piece` of `clip` in `format`, writing it to `output` (the caller's
    /// temporary file). `masks` receives each used frame's alpha; `progress` the frames done.
    @concurrent
    public func make(clip: URL, piece: ClipPiece, first: ClipSubjectTracker.FirstFrameChoice = .choice(.main),
                     format: AnimatedFormat, output: URL, masks: MaskHandler? = nil,
                     progress: (@Sendable (Int) -> Void)? = nil) async throws -> AnimatedStickerSummary {
        try await seekingRun(clip: clip, piece: piece, first: first, format: format, output: output, masks: masks, progress: progress).summary
    }

    /// The sticker's frames on their canvas, unencoded, its frame rate and each frame's milliseconds
    /// (a GIF's or APNG's own delays; else even at the rate): for size targeting
    /// (`AnimatedStickerFitter`), which encodes them several times. Held in memory: a sticker's
    /// piece is short (at most 10 s at 15 frames a second).
    @concurrent
    public func frames(clip: URL, piece: ClipPiece, first: ClipSubjectTracker.FirstFrameChoice = .choice(.main),
                       progress: (@Sendable (Int) -> Void)? = nil) async throws -> (frames: [Image], framesPerSecond: Double, milliseconds: [Int]) {
        let made = try await seekingRun(clip: clip, piece: piece, first: first, format: nil, output: nil, masks: nil, progress: progress)
        return (made.frames, made.summary.framesPerSecond, made.milliseconds)
    }

    /// A seek that gave no frame of a piece inside the clip, or far fewer than it holds (`run`'s
    /// first pass).
    private struct SeekFellShort: Error {}

    /// `run`, its piece reached by a seek; when that seek gives no frame of a piece inside the
    /// clip, or far fewer than the piece holds, again by decoding every frame before it. An
    /// MPEG-TS file has no index: ffmpeg's seek lands between keyframes, and nothing decodes
    /// before the next one ("co located POCs unavailable", ffmpeg's exit status 0): in a stream
    /// of one long group of pictures no frame at all; with a keyframe every 10 s, a piece from 5 s
    /// began at 10 s, its masks named from frame 100.
    private func seekingRun(clip: URL, piece: ClipPiece, first: ClipSubjectTracker.FirstFrameChoice,
                            format: AnimatedFormat?, output: URL?, masks: MaskHandler?,
                            progress: (@Sendable (Int) -> Void)?) async throws -> (summary: AnimatedStickerSummary, frames: [Image], milliseconds: [Int]) {
        // A WebM with alpha asks for libvpx: kept only when this ffmpeg has it (asked once for both runs).
        let decoder = await ClipDetection.availableDecoderArguments(clip)
        // The reading by motion starts over from the piece's first frame: its count must not take
        // the progress back (it stands still until the second reading passes the first).
        let progress = progress.map { report in
            let steady = SteadyProgress(report)
            return { @Sendable (done: Int) in steady.report(done) }
        }
        func attempt(byMotion: MotionSubject?) async throws -> (summary: AnimatedStickerSummary, frames: [Image], milliseconds: [Int]) {
            do {
                return try await run(clip: clip, piece: piece, first: first, format: format, output: output, masks: masks,
                                     progress: progress, decoder: decoder, seeksByDecoding: false, byMotion: byMotion)
            } catch is SeekFellShort {
                return try await run(clip: clip, piece: piece, first: first, format: format, output: output, masks: masks,
                                     progress: progress, decoder: decoder, seeksByDecoding: true, byMotion: byMotion)
            }
        }
        do {
            return try await attempt(byMotion: nil)
        } catch let error as ClipError {
            // No subject the network saw moves apart: what the background's motion does not explain
            // may still (line art it hardly sees). The piece is read again; refused as before when
            // nothing moves apart.
            guard case .cutOut(.noClearSubject) = error, first == .choice(.main), let motion = tracking.motionSubject else { throw error }
            try Task.checkCancellation()
            do { return try await attempt(byMotion: motion) } catch ClipError.cutOut(.noClearSubject) { throw error }
        }
    }

    /// `make` (a format and an output) or `frames` (neither: the frames kept); `decoder`: the
    /// arguments naming ffmpeg's decoder (`ClipDetection.availableDecoderArguments`). `byMotion`:
    /// the network is not asked; each frame's subject is what differs from the plate (`MotionSubject`).
    private func run(clip: URL, piece: ClipPiece, first: ClipSubjectTracker.FirstFrameChoice,
                     format: AnimatedFormat?, output: URL?, masks: MaskHandler?,
                     progress: (@Sendable (Int) -> Void)?, decoder: [String],
                     seeksByDecoding: Bool, byMotion: MotionSubject? = nil) async throws -> (summary: AnimatedStickerSummary, frames: [Image], milliseconds: [Int]) {
        // ffmpeg starts while ffprobe reads the clip: the two start-ups (~0.1 s, both cores idle
        // otherwise) overlap. Its frames are fitted to the working side by the rule the probed size
        // gives here (`fittedSize`), so a clip too large is refused before its first frame is read.
        let reader = try ClipFrameReader(clip: clip, piece: piece, fittingIn: workingSide, seeksByDecoding: seeksByDecoding,
                                         decoder: decoder)
        defer { reader.close() }
        let info: ClipInfo, timeline: AnimatedImageTimeline?, videoTimeline: AnimatedImageTimeline?, evenRate: Double?
        do {
            // A GIF or APNG cut short is told by its own structure (ffmpeg decodes it to its last
            // whole image without an error); its frames' own delays time the sticker. A video's
            // frames, when their rate varies, are timed by their own presentation times.
            timeline = try AnimatedImageTimeline.read(contentsOf: clip)
            async let probed = ClipInfo.probe(clip)
            let timed = timeline == nil ? await AnimatedImageTimeline.variableRate(of: clip, until: piece.seekSeconds + piece.duration) : (timeline: nil, evenRate: nil)
            videoTimeline = timed.timeline
            evenRate = timed.evenRate
            info = try await probed
        } catch {
            await reader.stop()
            throw error
        }
        guard info.width * info.height <= maximumPixelCount else {
            await reader.stop()
            throw ClipError.tooLarge(width: info.width, height: info.height)
        }
        // A point off the frame is refused before any look, as a photo's is.
        if case .point(let x, let y) = first, !(0..<info.width ~= x && 0..<info.height ~= y) {
            await reader.stop()
            throw ClipError.cutOut(.noSuchSubject(.pointOutsidePhoto(x: x, y: y, width: info.width, height: info.height)))
        }
        let (frameWidth, frameHeight) = ClipFrameReader.fittedSize(width: info.width, height: info.height, maximumSide: workingSide)
        reader.expectFrames(width: frameWidth, height: frameHeight)
        // A GIF or APNG cut short is told by its structure; a video by the frames its container promises.
        let expectedFrames = timeline == nil ? piece.expectedFrameCount(info: info) : nil
        reader.expectedFrameCount = expectedFrames
        // A variable-rate video's average rate from its own frames (containers disagree on it); an
        // even one's too when the container's is off by more than 5 % (an edit list's cut frames).
        let sourceRate = videoTimeline.map { Double($0.frameSeconds.count) / $0.frameSeconds.reduce(0, +) }
            ?? evenRate.flatMap { abs($0 / info.framesPerSecond - 1) > 0.05 ? $0 : nil } ?? info.framesPerSecond
        let step = Self.frameStep(sourceFramesPerSecond: sourceRate, maximum: maximumFramesPerSecond)
        let fps = sourceRate / Double(step)
        // The GIF's, APNG's or variable-rate video's own clock, while ffmpeg delivers the frames it
        // lists (checked after the first pass).
        var clock = PieceClock(piece: piece, frameStarts: (timeline ?? videoTimeline)?.frameStarts, sourceRate: sourceRate, step: step)

        /// Whether the first pass's seek fell short: no frame, or far fewer than the piece holds, of a
        /// piece that starts before the clip's last frame (its length known); then `seekingRun` reads
        /// the piece again by decoding up to it.
        func seekFellShort() -> Bool {
            guard !seeksByDecoding, piece.seekSeconds > 0, let length = info.duration,
                  piece.seekSeconds < length - 1 / sourceRate else { return false }
            return reader.framesDelivered == 0
                || expectedFrames.map { ClipFrameReader.endsShort(delivered: reader.framesDelivered, expected: $0) } ?? false
        }

        // The first frame's subject scales the first frame's point too.
        var firstChoice = first
        if case .point(let x, let y) = first {
            firstChoice = .point(x: Int(Double(x) * Double(frameWidth) / Double(info.width)),
                                 y: Int(Double(y) * Double(frameHeight) / Double(info.height)))
        }
        var extractor = SubjectExtractor(predictor: predictor, style: style)
        extractor.refinement.workingDimension = workingSide
        let tracker = ClipSubjectTracker(extractor: extractor, first: firstChoice, settings: tracking)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var sink: FrameSink?
        var used = 0
        var style = self.style

        // First pass: the network's looks, the subject followed; its frames' pixels kept for the
        // second pass when the piece's fit in the budget.
        var pass = ClipFirstPass(tracker: tracker, settings: tracking, byMotion: byMotion, framesPerSecond: fps, progress: progress)

        var again: ClipFrameReader?
        defer { again?.close() }
        // The used frames, in order, when the piece's fit in the budget by its length (one more
        // frame allowed for rounding); let go at once if they outgrow it (nil then).
        let pieceSeconds = min(piece.duration, max(0, (info.duration ?? clock.pieceEnd) - piece.seekSeconds))
        let estimatedBytes = (Int((pieceSeconds * fps).rounded(.up)) + 1) * frameWidth * frameHeight * 4
        var keptFrames: [Image?]? = estimatedBytes <= keptFramesBudget ? [] : nil
        var keptBytes = 0
        do {
            var sourceFrame = 0
            try await LookLanes.with(predictor: predictor, count: min(cores, 4)) { lanes in
                while let frame = try await reader.next() {
                    try Task.checkCancellation()
                    defer { sourceFrame += 1 }
                    guard sourceFrame % step == 0 else { continue }
                    if keptFrames != nil {
                        keptBytes += frame.pixels.count
                        if keptBytes <= keptFramesBudget { keptFrames?.append(frame) } else { keptFrames = nil }
                    }
                    try await pass.take(frame, first: sourceFrame == 0, lanes: &lanes)
                }
                // A cancelled read ends the frames early: not a seek that fell short.
                try Task.checkCancellation()
                if seekFellShort() { throw SeekFellShort() }
                clock.check(delivered: sourceFrame)
                // Frames not kept: the second pass's ffmpeg starts now, its start-up (~0.1 s, linking
                // its libraries) beside the plate's building instead of before the first cut-out. It
                // waits on its pipe until then, a frame decoded.
                if keptFrames == nil {
                    again = try ClipFrameReader(clip: clip, piece: piece, fittingIn: workingSide, seeksByDecoding: seeksByDecoding,
                                                decoder: decoder)
                    again?.expectFrames(width: frameWidth, height: frameHeight)
                    again?.expectedFrameCount = expectedFrames
                }
                try await pass.finish(lanes: &lanes)
            }
            try Task.checkCancellation()
            // Scenery the camera panned over is known only once the clip has been seen.
            if byMotion == nil {
                do { try tracker.finish() } catch { throw ClipError.cutOut(error) }
            }

            // The background plate, then the second pass: each frame (kept, or the piece decoded
            // again) cut out along its look, in parallel.
            var samples = pass.takeSamples()
            let plate = tracking.usesBackgroundPlate || byMotion != nil
                ? await BackgroundPlate.build(samples, agreeing: tracking.plateAgreeing, spreadsScenery: byMotion == nil,
                                              zoneReach: tracking.plateSubjectReach) : nil
            // By motion: refused unless a subject moves apart from the background in the samples.
            var moving: MotionSubject.Found?, movingBox: (width: Int, height: Int)?
            if let byMotion {
                guard let plate, let found = await byMotion.present(in: samples, plate: plate, matte: tracking.matte) else {
                    throw ClipError.cutOut(.noClearSubject)
                }
                let scale = Double(frameWidth) / Double(max(1, samples.first?.frame.width ?? frameWidth))
                movingBox = (Int(Double(found.width) * scale), Int(Double(found.height) * scale))
                moving = found
            }
            samples = []
            let looks = pass.looks
            let cutter = tracker.cutter(plate: plate, largestSubject: byMotion == nil ? looks.map(\.subjectShare).max() ?? 0 : 0,
                                        byMotion: byMotion, stillInFrame: moving?.still)
            let total = looks.count, firstHalf = (total + 1) / 2
            if total > 0 {
                // One outline width for every frame (the first frame's subject's), so it stays steady.
                if style.outlineWidth == nil, let box = tracker.firstCutOut?.mask.bounds {
                    style.outlineWidth = style.resolvedOutlineWidth(width: box.width, height: box.height)
                } else if style.outlineWidth == nil, let box = movingBox {
                    style.outlineWidth = style.resolvedOutlineWidth(width: box.width, height: box.height)
                }
                // WebM's constant rate: a GIF's shortest frame gets a tick of its own, and so does
                // an even clip's last frame cut short by the piece's end.
                let webmRate = FrameDurations.constantRate(for: clock.durations(count: total, framesPerSecond: fps),
                                                           average: fps, maximum: 30)
                sink = try FrameSink(format: format, output: output, canvas: canvas, fps: fps, webmFramesPerSecond: webmRate,
                                     styledSize: Self.styledSize(style, width: frameWidth, height: frameHeight))
            }
            // The next used frame: kept (let go as it is handed on), or decoded again.
            sourceFrame = 0
            var keptIndex = 0
            func nextUsedFrame() async throws -> Image? {
                if keptFrames != nil {
                    guard keptIndex < keptFrames!.count, let frame = keptFrames![keptIndex] else { return nil }
                    keptFrames![keptIndex] = nil
                    keptIndex += 1
                    return frame
                }
                while let frame = try await again!.next() {
                    defer { sourceFrame += 1 }
                    if sourceFrame % step == 0 { return frame }
                }
                return nil
            }
            if let layout = sink?.layout {
                let second = ClipSecondPass(cutter: cutter, looks: looks, style: style, layout: layout,
                                            maskSize: masks == nil ? nil : (info.width, info.height),
                                            // Three frames a core (four cores' worth at most: each holds its mask at the clip's size).
                                            underWay: 3 * min(cores, 4))
                try await second.run(next: nextUsedFrame) { shown in
                    try await sink!.add(shown.frame, milliseconds: clock.milliseconds(ofUsed: used))
                    if let masks, let alpha = shown.alpha { try await masks(clock.sourceIndex(ofUsed: used), alpha) }
                    used += 1
                    progress?(firstHalf + used / 2)
                }
            }
            // The piece decoded again gave nothing (the first pass had frames): no sticker.
            if used == 0 { throw ClipError.noFrames }
        } catch {
            // Every ffmpeg killed and awaited: none outlives the work (nor the process, on Ctrl-C).
            await sink?.stop()
            await reader.stop()
            await again?.stop()
            if !Task.isCancelled, (error as? ClipError)?.isDecodingFailure == true, seekFellShort() { throw SeekFellShort() }
            throw error
        }
        guard var sink else { throw ClipError.noFrames }
        let bytes = try await sink.finish()
        return (AnimatedStickerSummary(width: sink.layout.width, height: sink.layout.height, frames: used,
                                       framesPerSecond: (fps * 1000).rounded() / 1000, bytes: bytes), sink.kept, sink.keptMilliseconds)
    }

    /// Every how many source frames one is used, so that the sticker plays at most `maximum` frames a
    /// second. A rate up to 5 % above a whole multiple counts as that multiple: GIF delays are whole
    /// centiseconds, so a 15 fps GIF (7, 6, 7, … cs) reads 15.08 fps and would otherwise lose every
    /// other frame.
    static func frameStep(sourceFramesPerSecond: Double, maximum: Double) -> Int {
        guard maximum > 0, sourceFramesPerSecond > 0 else { return 1 }
        return max(1, Int((sourceFramesPerSecond / maximum - 0.05).rounded(.up)))
    }

    /// The size `style` gives a canvas of `width`×`height` (every frame's: the margins depend only on it).
    static func styledSize(_ style: StickerStyle, width: Int, height: Int) -> (width: Int, height: Int) {
        let probe = style.apply(to: Image(width: width, height: height))
        return (probe.width, probe.height)
    }
}
