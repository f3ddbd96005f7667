import Foundation
import Raster
import Synchronization

/// The subject of a clip followed through its frames, without running the whole network on
/// every one.
///
/// The first frame is cut out as a photo is (the whole still pipeline: clear-subject check, closer
/// and upside-down looks, the choice of subject); that decides which saliency regions are "the
/// subject". Then every `keyframeInterval`-th frame gets a full look of the network, and the frames
/// between get a coarse look (U²-Net-p's 80 px side output: a third of the network's work), which
/// still places the subject where it really is in that frame. Each look keeps only the regions
/// that overlap the subject as it was (another salient thing entering the frame is not taken, nor
/// scenery the first half second showed to stay with the panned background: `start`); the
/// previous frame's saliency, carried along the subject's motion (`SubjectMotion`: its centre and
/// size), can be blended in (`previousWeight`, off: it measured worse). Every frame is then
/// refined against its own pixels (guided filter, edge colours) as a photo is. A clip whose
/// subject never moves apart from the panned background is refused (`finish`).
///
/// Two passes over the piece: `look` (first pass, sequential, causal after the first half
/// second, held once to decide the subject) keeps of each frame its subject's saliency (8 bits at
/// the network's 320 px) and its background's offset; a few frames spread over the piece lay a
/// plate of the background (`BackgroundPlate`); then `cutter(plate:)` cuts each frame out along its
/// look (second pass, frames in parallel), correcting the alpha with the plate where it is known
/// (`PlateMatte`). Owned by one task.
public final class ClipSubjectTracker {
    public struct Settings: Sendable, Hashable {
        /// Frames from one full network look to the next (1: a full look at every frame). 15 (at
        /// the default 15 frames a second, once a second): the second pass takes the edges from
        /// the frame itself and the plate, so a full look every 3rd, 6th, 15th frame or only the
        /// first gave the same figures (both eval sets and their re-encoded, lit and mirrored
        /// variants within 0.005 IoU and 0.04 of the flicker ratio), and a coarse look costs a
        /// third of a full one: a GIF that uses every frame (d02) spends ~4 % less CPU than with
        /// every 6th (four interleaved runs). At 15 frames a second that keeps the network's sharp
        /// look once a second for where the plate is unknown (a 5 fps GIF: every 3 s)
        /// (docs/benchmarks.md).
        public var keyframeInterval = 15
        /// How much of the previous frame's saliency, carried along the motion, is blended into
        /// each new look (0: none, each frame alone). 0: the carried saliency (centre and size
        /// only, no turn) lands beside a turning subject's edges, and every weight tried added
        /// error and flicker on the dev set (0.6, 0.3, 0.15 against 0: docs/benchmarks.md).
        public var previousWeight: Float = 0
        /// Grows the previous subject (saliency pixels) when telling which new regions belong to it.
        public var trackingReach = 12
        /// Whether a subject the camera carries along with the rest of the scene (it never moves
        /// apart from the background while the camera pans: `MovingSubjectCheck`) makes the clip
        /// one without a clear subject (`finish()` throws).
        public var refusesScenery = true
        /// A clip refused for want of a clear subject (the network saw none in its first frame, or
        /// only scenery the camera carried) is looked at again for a subject that moves apart from
        /// the background, with these thresholds, when its subject is chosen automatically (nil: refused).
        public var motionSubject: MotionSubject? = MotionSubject()
        /// Whether the frames are cut out again with a plate of the background (`BackgroundPlate`,
        /// `PlateMatte`): scenery the network finds salient leaves the subject pixel by pixel, and
        /// the edges' alpha is solved from the compositing equation.
        public var usesBackgroundPlate = true
        /// Frames the plate is laid from (spread over the piece; memory: this many frames).
        public var plateSamples = 16
        /// How many samples must have seen the background at a plate pixel, with the subject
        /// elsewhere, for the plate to know it. 2: where the subject sits most of the piece, a
        /// salient thing of the background beside it (a flower it passes over) is seen uncovered
        /// in only a few samples; left unknown, the network's word kept it in the cut-out (shared
        /// set: flicker 0.49 → 0.45 of the peer's, the dev set unchanged: docs/benchmarks.md).
        /// The samples must still agree (`BackgroundPlate`'s deviation rule).
        public var plateAgreeing = 2
        /// How far (px at the working size) the subject of each sample is grown before the rest of
        /// the sample is taken for background.
        public var plateSubjectReach = 6
        /// How each frame's alpha is corrected with the plate (its thresholds).
        public var matte = PlateMatte()
        /// Each frame's final alpha is steepened about ½ by this factor (1: as refined and solved).
        /// The clips' edges came out softer than the true ones, their alpha too low 2–3 px inside
        /// the edge and too high 1–2 px outside (dev set, edge profile: 0.84 against 0.97 at 2 px
        /// inside); 1.5 and 2 cut the dev set's flicker from 0.79× to 0.75× of the peer's, 9 of its
        /// 11 clips better, a furry subject's soft edge (c04) 4 % worse, a made one whose edge
        /// ramps over 10 px 18 % (docs/benchmarks.md). An alpha the compositing equation solved
        /// stays as solved (`FrameCutter.steepened`).
        public var edgeSteepness: Float = 1.5
        public init() {}
    }

    /// A frame's look (first pass): what the second pass needs to cut it out.
    public struct Look: Sendable {
        /// Position of the frame in the order looked at (0-based).
        public var index: Int
        /// The subject's saliency at the network's resolution, 8 bits (a few dozen kB a frame).
        var saliency: Mask
        /// The background's offset since the first frame, as a fraction of the frame's sides (nil: not followed).
        var offset: SIMD2<Float>?

        static func stored(_ plane: Plane) -> Mask {
            Mask(width: plane.width, height: plane.height, values: plane.values.map { UInt8(min(1, max(0, $0)) * 255 + 0.5) })
        }

        /// The share of the frame its subject covers (saliency above ½).
        var subjectShare: Float {
            Float(saliency.values.lazy.filter { $0 > 127 }.count) / Float(max(1, saliency.values.count))
        }

        var saliencyPlane: Plane {
            Plane(width: saliency.width, height: saliency.height, values: saliency.values.map { Float($0) * (1 / 255) })
        }
    }

    /// One frame's cut-out at the frame's size.
    public struct FrameCutOut: Sendable {
        /// Position of the frame in the order looked at (0-based).
        public var index: Int
        /// The frame with the subject's alpha and cleaned edge colours; transparent elsewhere.
        public var image: Image
        /// The alpha alone.
        public var alpha: Mask
        /// Whether the subject could not be placed in this frame (found by its motion, the plate
        /// did not fit the frame: a flash, a blur): its cut-out is empty, and a sticker shows the
        /// frame before it again rather than blink.
        public var unplaced = false
    }

    /// The first frame's subject: the one chosen, as the photo pipeline cut it.
    public enum FirstFrameChoice: Sendable, Hashable {
        case choice(SubjectChoice)
        /// The subject under this pixel of the frame.
        case point(x: Int, y: Int)
    }

    public let settings: Settings
    let extractor: SubjectExtractor
    let first: FirstFrameChoice
    private var last: (saliency: Plane, motion: SubjectMotion)?
    private var count = 0
    private var motionCheck: MovingSubjectCheck?
    /// The first frame's cut-out, as the photo pipeline made it (its bounds set the outline width).
    public private(set) var firstCutOut: SubjectExtractor.CutOut?

    public init(extractor: SubjectExtractor, first: FirstFrameChoice = .choice(.main), settings: Settings = Settings()) {
        self.extractor = extractor
        self.first = first
        self.settings = settings
    }

    /// The first frame's subject, decided before the first look (`start`).
    private var primed: Plane?
    /// The first frame's saliency from the photo pipeline, cut out ahead of `start` (`prime`);
    /// `start` turns it into `primed` (scenery taken out).
    private var firstSaliency: Plane?
    /// Salient regions of the first frame found to be scenery (`start`), at the saliency's size:
    /// carried along the background's motion, they are not taken back into the subject.
    private var scenery: Plane?

    /// Decides the first frame's subject with the frames that follow it in view (the clip's first
    /// half second): of several salient regions, those that stay with the background while the
    /// camera pans and another region moves apart are scenery, not the subject (a flower of the
    /// background photo beside the one moving over it), and are left out from the first frame on.
    /// Optional: without it, the first `look` decides from the first frame alone.
    public func start(_ frames: [Image]) async throws(SubjectExtractionError) {
        guard last == nil, primed == nil, let first = frames.first else { return }
        var saliency: Plane
        if let early = firstSaliency { saliency = early } else { saliency = try await startTracking(first) }
        firstSaliency = nil
        defer { primed = saliency }
        guard settings.refusesScenery, frames.count > 1 else { return }
        let regions = Self.regions(of: saliency, subjectFloor: extractor.minimumSubjectFraction)
        guard regions.areas.count > 1 else { return }
        let planes = regions.areas.indices.map { r in
            Plane(width: saliency.width, height: saliency.height, values: regions.labels.map { $0 == r ? 1 : 0 })
        }
        guard var check = MovingSubjectCheck(frame: first, regions: planes) else { return }
        for frame in frames.dropFirst() { check.observe(frame, mask: nil) }
        let scenery = Set(check.sceneryRegions)
        guard !scenery.isEmpty else { return }
        // The scenery regions and their soft fringe leave the saliency; the subject's stay whole.
        let leaving = Plane(width: saliency.width, height: saliency.height,
                            values: regions.labels.map { $0 >= 0 && scenery.contains(Int($0)) ? 1 : 0 })
        let fringe = Self.grown(leaving, by: 3)
        for i in saliency.values.indices where fringe[i] {
            let label = regions.labels[i]
            if label < 0 || scenery.contains(Int(label)) { saliency.values[i] = 0 }
        }
        self.scenery = Plane(width: leaving.width, height: leaving.height, values: fringe.map { $0 ? 1 : 0 })
    }

    /// Cuts the first frame out by the photo pipeline now, before the frames after it are looked
    /// at; `start` and the first `look` go on from it, and must be given that same frame first.
    /// Optional. The maker calls it first: the photo pipeline's full look is then the network's
    /// first run in the clip, and tells every later session the shapes a coarse look needs
    /// (`NeuralNetwork`'s shape memo), so the lanes' first coarse looks skip the full-resolution
    /// decoder stages as their later ones do.
    func prime(_ first: Image) async throws(SubjectExtractionError) {
        guard last == nil, primed == nil, firstSaliency == nil else { return }
        firstSaliency = try await startTracking(first)
    }

    /// The saliency's level above which a first frame's regions are told apart when at ½ fewer
    /// than two are subject-sized (`regions(of:subjectFloor:)`).
    static let finerRegionLevel: Float = 0.7

    /// The first frame's salient regions, for telling scenery from the subject: those above ½, or,
    /// when fewer than two of them are subject-sized (`subjectFloor`, a fraction of the frame, as
    /// `SubjectRegions` counts subjects), those above `finerRegionLevel` if that gives two. A
    /// subject passing over a salient thing of the scene can join it at ½ by a hair: d01 as it is
    /// has them apart, its x264 re-encode (crf 23) or +0.04 brightness joined, and the joined
    /// region, mostly the fixed flower, went with the panned background: the flower stayed in
    /// every frame (IoU 0.87 → 0.63), or the clip was refused.
    static func regions(of saliency: Plane, subjectFloor: Float) -> ConnectedComponents {
        let regions = ConnectedComponents(saliency, threshold: 0.5)
        let floor = Int((Float(saliency.width * saliency.height) * subjectFloor).rounded(.up))
        func subjects(_ found: ConnectedComponents) -> Int { found.areas.filter { $0 >= floor }.count }
        guard subjects(regions) < 2 else { return regions }
        let finer = ConnectedComponents(saliency, threshold: finerRegionLevel)
        return subjects(finer) >= 2 ? finer : regions
    }

    /// The scenery of the first frame where the background has carried it (`offset`: a fraction of
    /// the frame's width and height), at `width`×`height`.
    static func scenery(_ scenery: Plane?, at offset: SIMD2<Float>?, width: Int, height: Int) -> Plane? {
        guard let scenery, let offset else { return nil }
        let zone = scenery.width == width && scenery.height == height ? scenery : scenery.resized(width: width, height: height, filter: .area)
        let dx = Int((offset.x * Float(width)).rounded()), dy = Int((offset.y * Float(height)).rounded())
        var out = Plane(width: width, height: height)
        for y in 0..<height where y - dy >= 0 && y - dy < height {
            for x in 0..<width where x - dx >= 0 && x - dx < width { out.values[y * width + x] = zone.values[(y - dy) * width + x - dx] }
        }
        return out
    }

    /// The background's offset since the first frame now (a fraction of the frame's sides), when followed.
    private var backgroundOffset: SIMD2<Float>? {
        guard let offset = motionCheck?.backgroundOffset else { return nil }
        return SIMD2(offset.x, offset.y)
    }

    /// How deeply the network looks at a frame.
    public enum LookDepth: Sendable, Hashable {
        /// The network's fused saliency.
        case full
        /// Its 80 px side output (a third of the work): where the subject is, not its edges.
        case coarse
    }

    /// How deeply the network looks at the frame looked at `index`th (0-based): every
    /// `keyframeInterval`-th fully; nil for the first, whose subject the photo pipeline decides.
    public func depth(ofLook index: Int) -> LookDepth? {
        guard index > 0 else { return nil }
        return index % max(1, settings.keyframeInterval) == 0 ? .full : .coarse
    }

    /// The next frame's look (first pass): where its subject is, and where its background is.
    /// `seen`: the network's look at it, at `depth(ofLook:)` (`LookLanes` runs them ahead, in
    /// parallel); nil for the first look only, which has none.
    public func look(_ frame: Image, seen: Plane?) async throws(SubjectExtractionError) -> Look {
        let index = count
        count += 1
        guard var previous = last else {
            let saliency: Plane
            if let primed {
                saliency = primed
                self.primed = nil
            } else if let early = firstSaliency {
                saliency = early
                firstSaliency = nil
            } else {
                saliency = try await startTracking(frame)
            }
            last = (saliency, SubjectMotion(saliency) ?? SubjectMotion(centerX: 0, centerY: 0, size: 1))
            if settings.refusesScenery || settings.usesBackgroundPlate {
                motionCheck = MovingSubjectCheck(frame: frame, regions: [saliency])
                // Followed to the end when the scenery must be kept out, or the plate laid.
                motionCheck?.followsBackground = scenery != nil || settings.usesBackgroundPlate
            }
            return Look(index: index, saliency: Look.stored(saliency), offset: backgroundOffset)
        }
        guard let raw = seen else { preconditionFailure("look \(index) comes without the network's look at it") }
        // The background's motion in this frame needs no look: followed beside the subject's
        // following below, the check's own copy in a child task.
        let checkSoFar = motionCheck
        async let followed = Self.followingMotion(checkSoFar, in: frame)
        if previous.saliency.width != raw.width || previous.saliency.height != raw.height {
            // The first look may have been a closer one, pasted at another resolution.
            previous.saliency = previous.saliency.resized(width: raw.width, height: raw.height, filter: .area)
            previous.motion = SubjectMotion(previous.saliency) ?? previous.motion
        }
        var saliency = follow(raw, previous: previous.saliency,
                              scenery: Self.scenery(scenery, at: backgroundOffset, width: raw.width, height: raw.height))
        if let seen = SubjectMotion(saliency) {
            let weight = settings.previousWeight
            if weight > 0 {
                let carried = previous.motion.carry(previous.saliency, to: seen)
                saliency.values = zip(saliency.values, carried.values).map { $0 * (1 - weight) + $1 * weight }
            }
        } else {
            // Out of this look's sight (a blur, a turn): the subject as it was.
            saliency = previous.saliency
        }
        last = (saliency, SubjectMotion(saliency) ?? previous.motion)
        let stored = Look.stored(saliency)
        let (check, motion) = await followed
        motionCheck = check
        if let motion { motionCheck?.reanchor(motion, mask: stored) }
        return Look(index: index, saliency: stored, offset: backgroundOffset)
    }

    /// `check` after `followMotion` of `frame`, and what it saw.
    private static func followingMotion(_ check: MovingSubjectCheck?, in frame: Image) -> (MovingSubjectCheck?, MovingSubjectCheck.Motion?) {
        guard var check else { return (nil, nil) }
        let motion = check.followMotion(frame)
        return (check, motion)
    }

    /// What cuts the frames out along their looks (second pass), once the first is done.
    func cutter(plate: BackgroundPlate? = nil, largestSubject: Float = 0, byMotion: MotionSubject? = nil,
                stillInFrame: ColorPlanes? = nil) -> FrameCutter {
        FrameCutter(extractor: extractor, scenery: scenery, plate: plate, matte: settings.matte,
                    subjectReach: settings.plateSubjectReach, edgeSteepness: settings.edgeSteepness, largestSubject: largestSubject,
                    byMotion: byMotion, stillInFrame: stillInFrame)
    }

    /// After the last frame: throws `.noClearSubject` when the clip showed scenery (the camera
    /// panned and the subject never moved apart from the background).
    public func finish() throws(SubjectExtractionError) {
        if settings.refusesScenery, let motionCheck, motionCheck.isScenery { throw .noClearSubject }
    }

    /// The first frame through the photo pipeline; returns its saliency reduced to the chosen subject.
    private func startTracking(_ frame: Image) async throws(SubjectExtractionError) -> Plane {
        let seen = SeenSaliency()
        var extractor = self.extractor
        extractor.located = { plane in seen.set(plane) }
        if case .choice(let choice) = first { extractor.choice = choice }
        var cut = try await extractor.cutOut(from: frame)
        if case .point(let x, let y) = first {
            guard let subjects = cut.subjects else { throw .noClearSubject }
            do throws(SubjectChoiceError) {
                let rank = try subjects.subject(atX: x, y: y)
                guard let chosen = try subjects.cutOut(choosing: .ranks([rank])) else { throw .nothingChosen }
                cut = chosen
            } catch {
                throw .noSuchSubject(error)
            }
        }
        firstCutOut = cut
        guard let raw = seen.get() else { throw .noClearSubject }
        // The chosen subject's mask at the saliency's resolution is the reference for the first look.
        let chosen = Plane(width: cut.mask.width, height: cut.mask.height, values: cut.mask.values.map { Float($0) / 255 })
            .resized(width: raw.width, height: raw.height, filter: .area)
        let saliency = follow(raw, previous: chosen)
        return SubjectMotion(saliency) == nil ? chosen : saliency
    }

    /// `raw` reduced to the regions that overlap the subject of `previous` (grown by the tracking
    /// reach), tidied as a photo's saliency is; the largest region when none overlaps.
    func follow(_ raw: Plane, previous: Plane, scenery: Plane? = nil) -> Plane {
        let regions = ConnectedComponents(raw, threshold: 0.5)
        guard let largest = regions.largest else { return Plane(width: raw.width, height: raw.height) }
        let near = Self.grown(previous, by: settings.trackingReach)
        var kept = [Bool](repeating: false, count: regions.areas.count)
        for (i, label) in regions.labels.enumerated() where label >= 0 && near[i] { kept[Int(label)] = true }
        if let scenery {
            // A region lying mostly where the first frame's scenery has been carried, and not on
            // the subject as it was, is that scenery again, however near it comes.
            var inside = [Int](repeating: 0, count: regions.areas.count), onSubject = [Bool](repeating: false, count: regions.areas.count)
            for (i, label) in regions.labels.enumerated() where label >= 0 {
                if scenery.values[i] > 0.5 { inside[Int(label)] += 1 }
                if previous.values[i] > 0.5 { onSubject[Int(label)] = true }
            }
            for r in kept.indices where kept[r] && !onSubject[r] && inside[r] * 2 > regions.areas[r] { kept[r] = false }
        }
        if !kept.contains(true) { kept[Int(largest)] = true }
        return extractor.cleanup.apply(to: raw, regions: regions, keeping: kept)
    }

    /// Where `plane` > 0.5, grown by `reach` pixels (a square window: separable running maxima).
    /// Both passes go row by row (the vertical one keeps each column's last row on), through
    /// pointers: the column-by-column walk it replaced missed the cache on every pixel. Their
    /// inner loops are a select and a store per pixel, no test (d02: this function's share of the
    /// clip's CPU 1.9 → 1.4 %, `perf`; the horizontal pass's running "last on" is what is left).
    static func grown(_ plane: Plane, by reach: Int) -> [Bool] {
        let w = plane.width, h = plane.height
        guard w > 0, h > 0 else { return [] }
        let span = 2 * reach
        var rows = [Bool](repeating: false, count: w * h)
        var out = [Bool](repeating: false, count: w * h)
        plane.values.withUnsafeBufferPointer { values in
            rows.withUnsafeMutableBufferPointer { rows in
                for y in 0..<h {
                    let source = values.baseAddress! + y * w, row = rows.baseAddress! + y * w
                    // row[x − reach] is on when the last pixel on at or before x lies within 2 × reach of x.
                    var lastOn = Int.min / 2
                    for x in 0..<min(reach, w) where source[x] > 0.5 { lastOn = x }
                    if reach < w {
                        for x in reach..<w {
                            lastOn = source[x] > 0.5 ? x : lastOn
                            row[x - reach] = x - lastOn <= span
                        }
                    }
                    for x in max(w, reach)..<(w + reach) { row[x - reach] = x - lastOn <= span }
                }
            }
        }
        var lastOn = [Int32](repeating: Int32.min / 2, count: w)
        let span32 = Int32(truncatingIfNeeded: span)
        rows.withUnsafeBufferPointer { rows in
            out.withUnsafeMutableBufferPointer { out in
                lastOn.withUnsafeMutableBufferPointer { lastOn in
                    let last = lastOn.baseAddress!
                    for y in 0..<(h + reach) {
                        let y32 = Int32(truncatingIfNeeded: y)
                        if y < h {
                            let row = rows.baseAddress! + y * w
                            for x in 0..<w { last[x] = row[x] ? y32 : last[x] }
                        }
                        let target = y - reach
                        guard target >= 0 && target < h else { continue }
                        let destination = out.baseAddress! + target * w
                        for x in 0..<w { destination[x] = y32 &- last[x] <= span32 }
                    }
                }
            }
        }
        return out
    }
}

extension SaliencySession {
    /// The network's look at `image`, as deep as asked.
    func saliency(of image: Image, depth: ClipSubjectTracker.LookDepth) async throws(SubjectExtractionError) -> Plane {
        switch depth {
        case .full: try await saliency(of: image)
        case .coarse: try await coarseSaliency(of: image)
        }
    }
}

/// The saliency the photo pipeline reports through `SubjectExtractor.located` (called once, from
/// its own task): a `Mutex` because the callback must be `Sendable`.
private final class SeenSaliency: Sendable {
    private let plane = Mutex<Plane?>(nil)
    func set(_ value: Plane) { plane.withLock { $0 = value } }
    func get() -> Plane? { plane.withLock { $0 } }
}
