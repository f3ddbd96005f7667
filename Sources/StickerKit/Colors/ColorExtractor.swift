import Raster

/// Finds the dominant colours of an image: the few colours that best stand for all its pixels.
///
/// The image is area-averaged to about 256 px on its long side, its pixels are gathered into a
/// histogram of quantized colours in OKLab, and a weighted k-means (k-means++ seeding from a fixed
/// seed, the best of a few starts) places the colours; a last refinement moves each colour to the
/// geometric median of its pixels, because what a palette should minimise is each pixel's
/// *distance* to its nearest colour, not the squared distance. Colours closer than a just
/// noticeable difference are merged, so a flat image yields one colour however many are asked;
/// a slot freed by merging goes to the worst-served pixels when they are visibly different.
///
/// Not Sendable: it owns scratch buffers that are reused from call to call. Make one per task.
/// Same input, same output: there is no randomness beyond the fixed seeds.
public final class ColorExtractor {
    /// The palette sizes the product offers.
    public static let supportedCounts = 3...10
    /// The long side the image is area-averaged to before its colours are counted.
    public let workingSize: Int

    private var histogram = ColorHistogram()
    private var clustering = WeightedKMeans()

    public init(workingSize: Int = 256) {
        self.workingSize = max(16, workingSize)
    }

    /// The image's dominant colours, heaviest first, weights summing to 1.
    ///
    /// - Parameters:
    ///   - count: how many colours to return at most (clamped to 1…16); fewer come back when the
    ///     image has fewer visibly distinct colours.
    ///   - mask: optional alpha (any size; it is stretched over the image) that weights each pixel,
    ///     e.g. a cut-out's mask to get the subject's colours. Pixels that are fully transparent in
    ///     the image or the mask are ignored; partly transparent ones count in proportion.
    /// - Returns: an empty scheme when no pixel is visible.
    ///   - mood: pick the photo's colours that fit this mood instead of the dominant ones (see
    ///     `PaletteMood`); `nil`, the default, is the dominant colours.
    public func extractColors(from image: Image, count: Int, mask: Mask? = nil, mood: PaletteMood? = nil) -> PhotoColorScheme {
        let count = min(max(count, 1), 16)
        histogram.build(from: image, mask: mask, longSide: workingSize)
        guard histogram.totalWeight > 0 else { return PhotoColorScheme(colors: []) }
        if let mood { return moodColors(count: count, mood: mood) }

        let jnd = DistinctColors.justNoticeableDifference
        var centres = clustering.cluster(fine: histogram.fine, coarse: histogram.coarse, count: count)
        // Merge colours no one could tell apart; a slot freed that way goes to the worst-served
        // pixels if they are visibly different from every colour (a flat image stays one colour).
        for _ in 0..<count {
            var weights = clustering.assignmentWeights(of: histogram.fine, to: centres)
            DistinctColors.merge(&centres, &weights, within: jnd)
            guard centres.count < count,
                  let extra = clustering.worstServedSample(of: histogram.fine, by: centres, fartherThan: jnd) else { break }
            centres.append(extra)
            clustering.refine(histogram.fine, &centres)
        }
        // Weights are the fraction of pixels nearest each final colour.
        let weights = clustering.assignmentWeights(of: histogram.fine, to: centres)
        return DistinctColors.scheme(centres: centres, weights: weights)
    }

    /// A mood's colours from the histogram just built, weighted by the pixels nearest each.
    private func moodColors(count: Int, mood: PaletteMood) -> PhotoColorScheme {
        let fine = histogram.fine
        let centres = MoodSelection.choose(fine, count: count, mood: mood).map { SIMD3(fine.L[$0], fine.a[$0], fine.b[$0]) }
        let weights = clustering.assignmentWeights(of: fine, to: centres)
        return DistinctColors.scheme(centres: centres, weights: weights)
    }
}
