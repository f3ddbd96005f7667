import Foundation
import Raster

/// A palette's mood, as Adobe Color offers them: which of the photo's own colours to pick.
///
/// The colours of a mood are still the photo's: each is the mean colour of a small bin of its
/// pixels (5 bits a channel, so within a few ΔE of real pixels), never an invented or shifted
/// colour. The mood only decides which of them are chosen, by their OKLCH lightness and chroma.
public enum PaletteMood: String, CaseIterable, Sendable, Hashable, Codable {
    /// The most chromatic colours.
    case colorful
    /// Light and vivid colours.
    case bright
    /// Low-chroma colours, mid lightness preferred.
    case muted
    /// Dark colours that keep their chroma: the most chromatic of the photo's darker half.
    case deep
    /// The darkest colours (a little chroma preferred over pure black).
    case dark

    /// How well a colour of OKLCH lightness `L` (0…1) and chroma `C` (0…~0.32) fits the mood;
    /// `relativeC` is the chroma as a fraction of the photo's own (its 95th percentile), so
    /// "keeping chroma" means keeping it for this photo, grey or vivid.
    func score(L: Float, C: Float, relativeC: Float) -> Float {
        switch self {
        case .colorful: C
        case .bright: L + C
        case .muted: -C - 0.25 * abs(L - 0.6)
        case .deep: relativeC - 1.2 * L
        case .dark: 0.3 * C - L
        }
    }
}

/// Picks a mood's colours from the image's colour bins: the best-scoring bins for the mood that
/// stand for at least a small share of the pixels, kept visibly apart from one another.
///
/// The choice is made first among the best-scoring quarter of the pixels (the photo's part that
/// has the mood), relaxing the separation before widening that pool to half and then all of
/// them: a photo with few dark colours gets close dark shades rather than a light one.
enum MoodSelection {
    /// A bin must hold this share of the pixels to be chosen, so JPEG noise and stray pixels
    /// never make a palette (relaxed when too few bins reach it).
    static let minimumShare: Float = 0.001
    /// Chosen colours are at least this far apart in OKLab (4 just noticeable differences),
    /// halved down to one JND when the photo has too few colours that far apart.
    static let separation: Float = 0.08

    /// Indices into `samples` of up to `count` colours for `mood`, best first.
    static func choose(_ samples: ColorSamples, count: Int, mood: PaletteMood) -> [Int] {
        let total = samples.weight.reduce(0, +)
        guard total > 0 else { return [] }
        let labs = (0..<samples.count).map { ClusteringSpace.oklab(SIMD3(samples.L[$0], samples.a[$0], samples.b[$0])) }
        let chromas = labs.map { ($0.a * $0.a + $0.b * $0.b).squareRoot() }
        let photoChroma = max(weightedPercentile(chromas, samples.weight, 0.95), 0.02)
        // Deep colours come from the photo's darker half (by pixels), the most chromatic of them.
        let lightnessCap = mood == .deep ? weightedPercentile(labs.map(\.L), samples.weight, 0.5) : .infinity
        var candidates: [(index: Int, lab: OKLab, score: Float, weight: Float)] = []
        for share in [minimumShare, 0] where candidates.count < count {
            candidates.removeAll()
            for i in 0..<samples.count where samples.weight[i] > share * total {
                // A small bonus for colours many pixels share: a mood should still look like the photo.
                let support = 0.03 * log10(max(samples.weight[i] / total, minimumShare) / minimumShare)
                let score = mood.score(L: labs[i].L, C: chromas[i], relativeC: min(chromas[i] / photoChroma, 1.5))
                    - (labs[i].L > lightnessCap ? 10 : 0)
                candidates.append((i, labs[i], score + support, samples.weight[i]))
            }
        }
        // Best first; ties by index so the choice depends on nothing but the colours.
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }
        let candidateTotal = candidates.reduce(0) { $0 + $1.weight }

        var chosen: [(index: Int, lab: OKLab)] = []
        for poolShare: Float in [0.25, 0.5, 1] where chosen.count < count {
            // The best-scoring candidates holding `poolShare` of the pixels (at least `count` of them).
            var poolSize = 0, running: Float = 0
            while poolSize < candidates.count, running < poolShare * candidateTotal || poolSize < count {
                running += candidates[poolSize].weight
                poolSize += 1
            }
            let pool = candidates.prefix(poolSize)
            var separation = Self.separation
            while chosen.count < count {
                let next = pool.first { candidate in
                    chosen.allSatisfy { $0.lab.distance(to: candidate.lab) >= separation }
                }
                if let next {
                    chosen.append((next.index, next.lab))
                } else if separation > DistinctColors.justNoticeableDifference {
                    separation = max(separation / 2, DistinctColors.justNoticeableDifference)
                } else {
                    break
                }
            }
        }
        return chosen.map(\.index)
    }

    /// The value below which `fraction` of the weight lies.
    static func weightedPercentile(_ values: [Float], _ weights: [Float], _ fraction: Float) -> Float {
        let order = values.indices.sorted { values[$0] < values[$1] }
        let total = weights.reduce(0, +)
        var running: Float = 0
        for i in order {
            running += weights[i]
            if running >= fraction * total { return values[i] }
        }
        return values.max() ?? 0
    }
}
