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
        let styled = style.apply(to: cut.image)
        lap("style")
        return Sticker(image: styled, mask: cut.mask)
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
    }

    @concurrent
    public func cutOut(from image: Image) async throws(SubjectExtractionError) -> CutOut {
        try await cutOut(from: image, lap: { _ in })
    }

    private func cutOut(from image: Image, lap: (String) -> Void) async throws(SubjectExtractionError) -> CutOut {
        guard image.width > 0 && image.height > 0 else { throw .emptyImage }
        // An integer reduction: exact block averages, and full-size pixels map to working ones simply.
        let factor = max(1, (max(image.width, image.height) + refinement.workingDimension - 1) / refinement.workingDimension)
        let work = ColorPlanes.reduced(image, factor: factor)
        let workWidth = work.width, workHeight = work.height
        lap("downscale")

        let raw = try await predictor.saliency(of: work.image)
        lap("saliency")
        guard presence.hasClearSubject(raw) else { throw .noClearSubject }
        let tidy = cleanup.apply(to: raw)
        lap("cleanup")

        let magnification = max(Float(workWidth) / Float(raw.width), Float(workHeight) / Float(raw.height))
        let radius = max(1, Int((magnification * refinement.radiusInSaliencyPixels).rounded()))
        let coarse = tidy.resampled(width: workWidth, height: workHeight)
        let filtered = GuidedFilter(radius: radius, epsilon: refinement.epsilon).apply(guide: work, input: coarse.values)
        let span = max(1e-3, refinement.high - refinement.low)
        let alpha = filtered.map { min(1, max(0, ($0 - refinement.low) / span)) }
        lap("refine")

        let colors = ForegroundEstimator(radii: [max(2, radius * 3), max(1, radius / 3)])
            .estimate(image: work, alpha: alpha)
        lap("foreground")

        let full = FullResolution(image: image, alpha: Plane(width: workWidth, height: workHeight, values: alpha),
                                  factor: factor)
        let mask = full.mask()
        guard let box = mask.bounds else { throw .noClearSubject }
        lap("upsample")
        let cut = full.cutOut(mask: mask, in: box, colors: colors)
        lap("compose")
        return CutOut(mask: mask, image: cut, originX: box.x, originY: box.y)
    }
}
