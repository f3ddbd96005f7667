import Raster

/// A clip's first pass (`ClipStickerMaker`): the network's looks at the used frames (`LookLanes`,
/// several at once), the subject followed from look to look by the tracker (in order), and a few
/// frames kept for the background plate. What a frame keeps for the second pass is its look (a
/// few dozen kB). By motion (`MotionSubject`), the network is not asked: the background is
/// followed alone, each frame's look its offset only. Owned by one task.
struct ClipFirstPass {
    let tracker: ClipSubjectTracker
    let settings: ClipSubjectTracker.Settings
    let byMotion: MotionSubject?
    /// The looks' share of the progress: the looks are the first half of the frames' work.
    let progress: (@Sendable (Int) -> Void)?
    /// Each used frame's look, in order.
    private(set) var looks: [ClipSubjectTracker.Look] = []
    private var samples: BackgroundPlate.Samples
    private var sampler: ClipSubjectTracker.FrameCutter?
    /// Frames handed to the lanes, not yet looked at by the tracker.
    private var waiting: [Image] = []
    /// The first half second is seen before its first frame is cut out (the subject is what moves
    /// apart from the background: `ClipSubjectTracker.start`); a few frames held at once, their
    /// looks under way meanwhile. nil once tracking started (or by motion).
    private var lookAhead: [Image]?
    private let lookAheadFrames: Int
    /// By motion: the background followed alone.
    private var backgroundOnly: MovingSubjectCheck?
    /// Why the first frame could not be cut out (`prime`), said when tracking starts: after the
    /// short-seek check, so a seek that fell short is read again rather than refused.
    private var primeFailure: SubjectExtractionError?

    init(tracker: ClipSubjectTracker, settings: ClipSubjectTracker.Settings, byMotion: MotionSubject?, framesPerSecond: Double,
         progress: (@Sendable (Int) -> Void)?) {
        self.tracker = tracker
        self.settings = settings
        self.byMotion = byMotion
        self.progress = progress
        samples = BackgroundPlate.Samples(capacity: settings.plateSamples)
        lookAhead = byMotion == nil ? [] : nil
        lookAheadFrames = max(2, Int((0.5 * framesPerSecond).rounded()) + 1)
    }

    /// The next used frame (`first`: the piece's first).
    mutating func take(_ frame: Image, first: Bool, lanes: inout LookLanes) async throws {
        guard byMotion == nil else {
            await lookByMotion(frame)
            return
        }
        if first {
            // The first frame is cut out before any look is handed to the lanes: its full look
            // tells the lanes' fresh sessions the shapes a coarse look needs, so their first coarse
            // looks skip the full-resolution decoder stages too (~300 → ~120 ms of CPU each:
            // `stickers-bench looks`). Measured on two cores; with more, the lanes wait the first
            // cut-out out (~0.2 s) and each still saves more CPU than it waits.
            do throws(SubjectExtractionError) { try await tracker.prime(frame) } catch {
                try Task.checkCancellation()
                primeFailure = error
            }
        }
        try await hand(frame, to: &lanes)
        if lookAhead != nil {
            lookAhead?.append(frame)
            if lookAhead?.count ?? 0 >= lookAheadFrames { try await startTracking(lanes: &lanes) }
            return
        }
        // The lanes keep their looks ahead of the tracker.
        try await lookWaiting(keeping: lanes.ahead, lanes: &lanes)
    }

    /// After the last frame: the frames still waiting looked at.
    mutating func finish(lanes: inout LookLanes) async throws {
        try await startTracking(lanes: &lanes)
        try await lookWaiting(keeping: 0, lanes: &lanes)
    }

    /// The frames kept for the plate, handed over once (the pass keeps none after).
    mutating func takeSamples() -> [BackgroundPlate.Sample] {
        defer {
            samples = BackgroundPlate.Samples(capacity: settings.plateSamples)
            sampler = nil
        }
        return samples.samples
    }

    private mutating func look(_ frame: Image, lanes: inout LookLanes) async throws {
        let seen: ClipSubjectTracker.Look
        do {
            let index = looks.count
            let raw = tracker.depth(ofLook: index) == nil ? nil : try await lanes.saliency(of: index)
            seen = try await tracker.look(frame, seen: raw)
        } catch let error as SubjectExtractionError {
            // A look cut short by cancellation is the cancellation, not a failing model.
            try Task.checkCancellation()
            throw ClipError.cutOut(error)
        }
        looks.append(seen)
        if settings.usesBackgroundPlate { await sample(frame, look: seen) }
        progress?((looks.count + 1) / 2)
    }

    private mutating func sample(_ frame: Image, look: ClipSubjectTracker.Look) async {
        guard samples.wants(look.index) else { return }
        if sampler == nil { sampler = tracker.cutter() }
        if let sample = await sampler?.plateSample(frame, look: look) { samples.add(sample, index: look.index) }
    }

    private mutating func hand(_ frame: Image, to lanes: inout LookLanes) async throws {
        let index = looks.count + waiting.count
        if let depth = tracker.depth(ofLook: index) { try await lanes.submit(frame, index: index, depth: depth) }
        waiting.append(frame)
    }

    private mutating func lookWaiting(keeping: Int, lanes: inout LookLanes) async throws {
        while waiting.count > keeping { try await look(waiting.removeFirst(), lanes: &lanes) }
    }

    private mutating func lookByMotion(_ frame: Image) async {
        var offset: SIMD2<Float>?
        if backgroundOnly == nil {
            backgroundOnly = MovingSubjectCheck(background: frame)
            offset = .zero
        } else if let step = backgroundOnly?.backgroundStep(frame) {
            offset = SIMD2(step.x, step.y)
        }
        let seen = ClipSubjectTracker.Look(index: looks.count, saliency: Mask(width: 1, height: 1), offset: offset)
        looks.append(seen)
        await sample(frame, look: seen)
        progress?((looks.count + 1) / 2)
    }

    private mutating func startTracking(lanes: inout LookLanes) async throws {
        guard let frames = lookAhead, !frames.isEmpty else { return }
        lookAhead = nil
        if let primeFailure { throw ClipError.cutOut(primeFailure) }
        do { try await tracker.start(frames) } catch {
            try Task.checkCancellation()
            throw ClipError.cutOut(error)
        }
        try await lookWaiting(keeping: lanes.ahead, lanes: &lanes)
    }
}
