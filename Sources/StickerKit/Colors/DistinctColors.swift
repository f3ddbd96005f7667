import Raster

/// The last step of extraction: merge colours a person could not tell apart, then turn cluster
/// centres into a scheme of 8-bit colours sorted by weight.
enum DistinctColors {
    /// The just noticeable difference in OKLab that CSS Color 4 uses for gamut mapping (ΔEOK 0.02).
    static let justNoticeableDifference: Float = 0.02

    /// Drops empty centres, then repeatedly merges the closest pair (by OKLab distance) while it is
    /// closer than `threshold`, into their weighted mean.
    static func merge(_ centres: inout [SIMD3<Float>], _ weights: inout [Float], within threshold: Float) {
        var kept: [(centre: SIMD3<Float>, weight: Float)] = zip(centres, weights).filter { $0.1 > 0 }.map { ($0.0, $0.1) }
        while kept.count > 1 {
            var closest = (i: 0, j: 0, distance: Float.infinity)
            for i in kept.indices {
                for j in (i + 1)..<kept.count {
                    let distance = ClusteringSpace.oklab(kept[i].centre).distance(to: ClusteringSpace.oklab(kept[j].centre))
                    if distance < closest.distance { closest = (i, j, distance) }
                }
            }
            guard closest.distance < threshold else { break }
            let (a, b) = (kept[closest.i], kept[closest.j])
            let weight = a.weight + b.weight
            kept[closest.i] = ((a.centre * a.weight + b.centre * b.weight) / weight, weight)
            kept.remove(at: closest.j)
        }
        centres = kept.map(\.centre)
        weights = kept.map(\.weight)
    }

    /// 8-bit colours of the centres, weights normalised to sum to 1, heaviest first (ties by hex,
    /// so the order never depends on anything but the colours).
    static func scheme(centres: [SIMD3<Float>], weights: [Float]) -> PhotoColorScheme {
        let total = weights.reduce(0.0) { $0 + Double($1) }
        guard total > 0 else { return PhotoColorScheme(colors: []) }
        var colors: [PaletteColor] = []
        for (centre, weight) in zip(centres, weights) where weight > 0 {
            let rgb = ClusteringSpace.oklab(centre).rgb8
            colors.append(PaletteColor(red: rgb.r, green: rgb.g, blue: rgb.b, weight: Double(weight) / total))
        }
        colors.sort { $0.weight != $1.weight ? $0.weight > $1.weight : $0.hex < $1.hex }
        return PhotoColorScheme(colors: colors)
    }
}
