import Foundation
import Raster

/// Cuts the main subject out of a photo, fully automatically: saliency from a network at low
/// resolution, checked for a clear subject, tidied, refined against the photo's own edges at about
/// a megapixel (guided filter), then brought to full size with the subject's true colours in the
/// soft edge; finally styled as a sticker.
public struct SubjectExtractor: Sendable {
    public var predictor: any SaliencyPredicting
    public var style: StickerStyle
    public var presence = SubjectPresence()
    public var cleanup = SaliencyCleanup()
    public var refinement = Refinement()
    /// Row bands the full-size stages are split into, on parallel child tasks (one per core: a lone
    /// photo uses the whole machine; in a batch the bands simply queue).
    public var bands = ProcessInfo.processInfo.activeProcessorCount
    /// Called once with the saliency the cut-out goes on with (after any second look, whole frame,
    /// before clean-up): a caller that only needs to know where the subject is (the pipeline's
    /// colour stage) starts while the refinement runs.
    public var located: (@Sendable (Plane) -> Void)?

    /// How the low-resolution saliency becomes a full-size alpha.
    public struct Refinement: Sendable, Hashable {
        /// Largest longer side of the working image (guided filter, colour estimation), in pixels:
        /// the photo is reduced by the smallest integer factor that fits (4000 px → 1000 px).
        public var workingDimension = 1024
        /// Guided-filter window radius in saliency pixels (so it spans the network's soft ramp
        /// whatever the working size).
        public var radiusInSaliencyPixels: Float = 3
        /// Guided-filter regularisation.
        public var epsilon: Float = 1e-3
        /// The refined saliency is mapped linearly from [low, high] to alpha [0, 1]: it trims the faint
        /// tails a smooth network output leaves, keeping a soft band of a few pixels.
        public var low: Float = 0.1
        public var high: Float = 0.9
        public init() {}
    }

    /// A small subject in a large frame can look unsure to a 320 px network. When the first look
    /// finds one compact candidate region, the network looks again at a crop around it; the candidate
    /// is accepted only if that closer look is clearly confident (stricter than the first test).
    public var closerPresence = SubjectPresence(minimumCoreFraction: 0.02, minimumRegionConfidence: 0.85)

    /// A large first-look subject is checked against an upside-down look (see `UpsideDownConsensus`).
    public var consensus = UpsideDownConsensus()

    /// Which subjects the sticker keeps; every subject is found and kept with the sticker either way
    /// (`Sticker.subjects`), so another choice is a re-cut, not a second run.
    public var choice = SubjectChoice.main
    /// A saliency region this large (fraction of the frame) is a subject of its own even when much
    /// smaller than the main one; smaller ones are specks (`SubjectPresence`'s floor for a subject).
    public var minimumSubjectFraction: Float = SubjectPresence().minimumRegionFraction

    public init(predictor: any SaliencyPredicting, style: StickerStyle = StickerStyle()) {
        self.predictor = predictor
        self.style = style
    }

    /// The sticker for `image` (already oriented): the styled cut-out and the full-size mask.
    @concurrent
    public func extractSubject(from image: Image) async throws(SubjectExtractionError) -> Sticker {
        try await extractSubject(from: image, stages: nil)
    }

    /// One stage's cost, reported to `extractSubject(from:stages:)`.
    public struct StageTiming: Sendable {
        public var name: String
        /// Wall-clock time.
        public var wall: Duration
        /// CPU time of the whole process (all threads) during the stage: steadier on a busy machine.
        public var cpu: Duration
    }

    /// As `extractSubject(from:)`, reporting each stage's duration to `stages` (benchmarks).
    @concurrent
    public func extractSubject(from image: Image,
                               stages: (@Sendable (StageTiming) -> Void)?) async throws(SubjectExtractionError) -> Sticker {
        let clock = ContinuousClock()
        var mark = clock.now
        var cpuMark = ProcessCPUClock.now()
        func lap(_ name: String) {
            let now = clock.now, cpuNow = ProcessCPUClock.now()
            stages?(StageTiming(name: name, wall: now - mark, cpu: cpuNow - cpuMark))
            mark = now; cpuMark = cpuNow
        }
        let cut = try await cutOut(from: image, lap: lap)
        let styled = await style.apply(to: cut.image, bands: bands)
        lap("style")
        return Sticker(image: styled, mask: cut.mask, cutOut: cut, style: style)
    }

    /// The subject alone: full-size alpha and the cropped cut-out (straight alpha, edge colours cleaned).
    public struct CutOut: Sendable, Hashable {
        /// The subject's alpha at the photo's size.
        public var mask: Mask
        /// The photo cropped to the subject's bounding box, alpha = mask, edge colours cleaned.
        public var image: Image
        /// Where `image` sits in the photo.
        public var originX: Int
        public var originY: Int
        /// All of the photo's subjects, for cutting out another choice of them (nil when unknown).
        public var subjects: PhotoSubjects?

        public init(mask: Mask, image: Image, originX: Int, originY: Int, subjects: PhotoSubjects? = nil) {
            self.mask = mask
            self.image = image
            self.originX = originX
            self.originY = originY
            self.subjects = subjects
        }
    }

    @concurrent
    public func cutOut(from image: Image) async throws(SubjectExtractionError) -> CutOut {
        try await cutOut(from: image, lap: { _ in })
    }

    private func cutOut(from image: Image, lap: (String) -> Void) async throws(SubjectExtractionError) -> CutOut {
        guard image.width > 0 && image.height > 0 else { throw .emptyImage }
        // An integer reduction: exact block averages, and full-size pixels map to working ones simply.
        let factor = max(1, (max(image.width, image.height) + refinement.workingDimension - 1) / refinement.workingDimension)
        let work = await ColorPlanes.reduced(image, factor: factor, bands: bands)
        let workWidth = work.width, workHeight = work.height
        lap("downscale")

        let raw = try await saliency(of: work)
        lap("saliency")
        located?(raw)
        // Every subject is refined together; the choice is cut from that afterwards.
        let regions = ConnectedComponents(raw, threshold: 0.5)
        let ranking = SubjectRegions.Ranking(saliency: raw, regions: regions, cleanup: cleanup,
                                             minimumFraction: minimumSubjectFraction)
        // The subjects' owners and innermost cells (a search and a distance transform over the
        // saliency's grid, one core for ~3 ms) are needed only to compose: found beside the refinement.
        async let found = SubjectRegions(ranking, width: raw.width, height: raw.height, regions: regions)
        let tidy = cleanup.apply(to: raw, regions: regions, keeping: ranking.isSubject)
        lap("cleanup")

        let magnification = max(Float(workWidth) / Float(raw.width), Float(workHeight) / Float(raw.height))
        let radius = max(1, Int((magnification * refinement.radiusInSaliencyPixels).rounded()))
        let coarse = tidy.resized(width: workWidth, height: workHeight, filter: .area)
        let filtered = await GuidedFilter(radius: radius, epsilon: refinement.epsilon).apply(guide: work, input: coarse.values)
        let span = max(1e-3, refinement.high - refinement.low)
        let alpha = filtered.map { min(1, max(0, ($0 - refinement.low) / span)) }
        lap("refine")

        let colors = await ForegroundEstimator(radii: [max(2, radius * 3), max(1, radius / 3)])
            .estimate(image: work, alpha: alpha)
        lap("foreground")

        let full = FullResolution(image: image, alpha: Plane(width: workWidth, height: workHeight, values: alpha),
                                  factor: factor)
        let mask = await full.mask(bands: bands)
        guard let box = mask.bounds else { throw .noClearSubject }
        lap("upsample")
        let cut = await full.cutOut(mask: mask, in: box, colors: colors, bands: bands)
        let subjects = PhotoSubjects(regions: await found, width: image.width, height: image.height,
                                     union: cut, originX: box.x, originY: box.y)
        let chosen: CutOut?
        do {
            // Choosing every subject (a photo of one subject, usually) is the union as it stands.
            chosen = try subjects.ranks(of: choice) == Array(subjects.subjects.indices)
                ? CutOut(mask: mask, image: cut, originX: box.x, originY: box.y,
                         subjects: subjects.choosing(Array(subjects.subjects.indices)))
                : subjects.cutOut(choosing: choice)
        } catch {
            throw .noSuchSubject(error)
        }
        lap("compose")
        guard let chosen else { throw .noClearSubject }
        return chosen
    }

    /// The saliency the cut-out goes on with: the first look, then a closer look when it is unsure
    /// or an upside-down look when its subject is large. The looks share one session, which ends
    /// here: its buffers are not held through the full-size stages.
    private func saliency(of work: ColorPlanes) async throws(SubjectExtractionError) -> Plane {
        let looks = predictor.makeSession()
        let image = work.image
        let first = try await looks.saliency(of: image)
        if presence.hasClearSubject(first) {
            return try await consensus.apply(to: first, of: image, in: looks)
        }
        guard let closer = try await closerLook(at: first, in: work, looks: looks) else { throw .noClearSubject }
        return closer
    }

    /// The saliency of a second look around the first look's largest candidate region, pasted into a
    /// whole-frame plane (zero elsewhere), or nil when there is no compact candidate or the closer
    /// look is not confident either.
    private func closerLook(at first: Plane, in work: ColorPlanes,
                            looks: any SaliencySession) async throws(SubjectExtractionError) -> Plane? {
        let presence = self.presence, closerPresence = self.closerPresence
        let evidence = presence.evidence(in: first)
        guard evidence.peak >= presence.minimumPeak, evidence.regionFraction >= presence.minimumRegionFraction,
              evidence.regionFraction <= 0.25 else { return nil }
        let regions = ConnectedComponents(first, threshold: 0.5)
        guard let largest = regions.largest else { return nil }
        var minX = first.width, minY = first.height, maxX = 0, maxY = 0
        for (i, label) in regions.labels.enumerated() where label == largest {
            let x = i % first.width, y = i / first.width
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        // The candidate's box in working pixels, grown to a square twice its larger side (at least a
        // quarter of the frame), clamped to the frame.
        let sx = Double(work.width) / Double(first.width), sy = Double(work.height) / Double(first.height)
        let cx = (Double(minX + maxX + 1) / 2) * sx, cy = (Double(minY + maxY + 1) / 2) * sy
        let extent = max(Double(maxX - minX + 1) * sx, Double(maxY - minY + 1) * sy)
        let side = max(2 * extent, Double(max(work.width, work.height)) / 4)
        let x0 = max(0, Int(cx - side / 2)), y0 = max(0, Int(cy - side / 2))
        let x1 = min(work.width, Int((cx + side / 2).rounded(.up))), y1 = min(work.height, Int((cy + side / 2).rounded(.up)))
        guard x1 - x0 >= 8, y1 - y0 >= 8, (x1 - x0) * (y1 - y0) < work.width * work.height * 3 / 4 else { return nil }
        let crop = work.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let closer = try await looks.saliency(of: crop.image)
        guard closerPresence.hasClearSubject(closer) else { return nil }
        // Whole frame at the closer look's resolution: the crop keeps its pixels, the rest is background.
        let scaleX = Double(closer.width) / Double(crop.width), scaleY = Double(closer.height) / Double(crop.height)
        let frameWidth = max(1, Int((Double(work.width) * scaleX).rounded()))
        let frameHeight = max(1, Int((Double(work.height) * scaleY).rounded()))
        let px0 = Int((Double(x0) * scaleX).rounded()), py0 = Int((Double(y0) * scaleY).rounded())
        let pw = max(1, min(frameWidth - px0, Int((Double(crop.width) * scaleX).rounded())))
        let ph = max(1, min(frameHeight - py0, Int((Double(crop.height) * scaleY).rounded())))
        let pasted = closer.resized(width: pw, height: ph, filter: .area)
        var frame = Plane(width: frameWidth, height: frameHeight)
        for y in 0..<ph {
            for x in 0..<pw { frame.values[(py0 + y) * frameWidth + px0 + x] = pasted.values[y * pw + x] }
        }
        return frame
    }
}
