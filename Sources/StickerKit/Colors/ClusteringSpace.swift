import Raster

/// The space colours are clustered in: OKLab with its lightness axis reshaped.
///
/// A palette is judged by how far each pixel is from its nearest colour, in OKLab and in
/// CIEDE2000. The two disagree mainly about lightness: CIEDE2000 divides lightness differences by
/// S_L = 1 + 0.015 (L* − 50)² / √(20 + (L* − 50)²), so near white and near black a change of
/// lightness counts up to ~1.6× less than a change of hue. Here the lightness axis is stretched by
/// 1/S_L (OKLab L ≈ L*/100) and scaled by 0.9, which trades a little OKLab error for a clearly
/// lower CIEDE2000 error on bright or dark, low-chroma photos (white skies, snow, night). Measured
/// on photo sets: plain OKLab, and lighter or stronger weights, each did worse on one metric.
/// Distances here never exceed OKLab distances (the lightness slope is at most 0.9).
enum ClusteringSpace {
    static let lightnessWeight: Float = 0.9
    private static let steps = 1024
    /// Warped lightness at L = i / steps, for L in 0…1 (OKLab L of sRGB colours stays in 0…1).
    private static let warped: [Float] = {
        var table = [Float](repeating: 0, count: steps + 1)
        var integral = 0.0
        func slope(_ l: Double) -> Double {
            let d = 100 * l - 50
            return 1 / (1 + 0.015 * d * d / (20 + d * d).squareRoot())
        }
        for i in 1...steps {
            let (l0, l1) = (Double(i - 1) / Double(steps), Double(i) / Double(steps))
            integral += (slope(l0) + slope(l1)) / 2 * (l1 - l0)
            table[i] = Float(integral) * lightnessWeight
        }
        return table
    }()

    /// The clustering coordinates of an OKLab colour.
    static func point(_ lab: OKLab) -> SIMD3<Float> {
        SIMD3(warp(lab.L), lab.a, lab.b)
    }

    /// The OKLab colour at clustering coordinates.
    static func oklab(_ point: SIMD3<Float>) -> OKLab {
        OKLab(L: unwarp(point.x), a: point.y, b: point.z)
    }

    private static func warp(_ L: Float) -> Float {
        let x = min(max(L, 0), 1) * Float(steps)
        let i = min(Int(x), steps - 1), t = x - Float(i)
        return warped[i] + (warped[i + 1] - warped[i]) * t
    }

    private static func unwarp(_ y: Float) -> Float {
        // The table increases strictly: binary search, then interpolate within the step.
        var low = 0, high = steps
        while high - low > 1 {
            let mid = (low + high) / 2
            if warped[mid] <= y { low = mid } else { high = mid }
        }
        let span = warped[high] - warped[low]
        let t = span > 0 ? min(max((y - warped[low]) / span, 0), 1) : 0
        return (Float(low) + t) / Float(steps)
    }
}
