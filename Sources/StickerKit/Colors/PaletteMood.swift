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
    /// Dark colours that keep their chroma.
    case deep
    /// The darkest colours (a little chroma preferred over pure black).
    case dark

    /// How well a colour of OKLCH lightness `L` (0…1) and chroma `C` (0…~0.32) fits the mood.
    func score(L: Float, C: Float) -> Float {
        switch self {
        case .colorful: C
        case .bright: L + C
        case .muted: -C - 0.25 * abs(L - 0.6)
        case .deep: 1.5 * C - 0.5 * L
        case .dark: 0.3 * C - L
        }
    }
}

/// Picks a mood's colours from the image's colour bins: the best-scoring bins for the mood that
/// stand for at least a small share of the pixels, kept visibly apart from one another.
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
        var candidates: [(index: Int, lab: OKLab, score: Float)] = []
        for share in [minimumShare, 0] where candidates.count < count {
            candidates.removeAll()
            for i in 0..<samples.count where samples.weight[i] > share * total {
                let lab = ClusteringSpace.oklab(SIMD3(samples.L[i], samples.a[i], samples.b[i]))
                let chroma = (lab.a * lab.a + lab.b * lab.b).squareRoot()
                // A small bonus for colours many pixels share: a mood should still look like the photo.
                let support = 0.03 * log10(max(samples.weight[i] / total, minimumShare) / minimumShare)
                candidates.append((i, lab, mood.score(L: lab.L, C: chroma) + support))
            }
        }
        // Best first; ties by index so the choice depends on nothing but the colours.
        candidates.sort { $0.score != $1.score ? $0.score > $1.score : $0.index < $1.index }

        var chosen: [(index: Int, lab: OKLab)] = []
        var separation = Self.separation
        while chosen.count < count {
            let next = candidates.first { candidate in
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
        return chosen.map(\.index)
    }
}
