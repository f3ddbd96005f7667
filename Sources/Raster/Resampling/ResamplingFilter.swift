/// How a resize computes each output pixel from the source pixels around it.
public enum ResamplingFilter: Sendable, Hashable, CaseIterable {
    /// The exact average over the area each output pixel covers (a box filter with fractional
    /// edges). The right choice for shrinking: no aliasing, no ringing. Along an axis that grows an
    /// output pixel covers less than one source pixel, so there is nothing to average: bilinear.
    case area
    /// Triangle filter (bilinear interpolation); widened when shrinking so every source pixel counts.
    case bilinear
    /// Keys cubic convolution (a = -0.5), sharper than bilinear; widened when shrinking. May
    /// overshoot near edges: Image and Mask results are clamped, Plane results are not.
    case bicubic
}

/// For one axis, which source samples (and with what weights) make each output sample.
///
/// Weights are stored flat, `stride` per output sample, so the inner loops read them linearly.
/// Public for resamplers of other pixel layouts (StickerKit's colour planes), so every resize in
/// the package weighs its samples the same way.
public struct ResamplingTaps: Sendable {
    /// Per output sample: its first source sample.
    public let starts: [Int]
    /// Per output sample: how many consecutive source samples it reads.
    public let counts: [Int]
    /// `stride` weights per output sample (the first `counts[i]` used), each sample's summing to 1.
    public let weights: [Float]
    public let stride: Int

    public init(filter: ResamplingFilter, from source: Int, to destination: Int) {
        precondition(source > 0 && destination > 0, "resampling needs non-empty axes")
        let scale = Double(source) / Double(destination)
        var taps: [[Float]] = []
        var starts: [Int] = []
        taps.reserveCapacity(destination)
        starts.reserveCapacity(destination)
        for i in 0..<destination {
            let (start, weights) = filter == .area && source >= destination
                ? Self.coverage(i, scale: scale, source: source)
                : Self.convolution(i, scale: scale, source: source, filter: filter)
            starts.append(start)
            taps.append(weights)
        }
        let stride = taps.map(\.count).max() ?? 0
        var flat = [Float](repeating: 0, count: stride * destination)
        for (i, weights) in taps.enumerated() {
            for (k, weight) in weights.enumerated() { flat[i * stride + k] = weight }
        }
        self.starts = starts
        self.counts = taps.map(\.count)
        self.weights = flat
        self.stride = stride
    }

    /// Output sample `i` covers source interval [i·scale, (i+1)·scale): weight = overlap / scale.
    private static func coverage(_ i: Int, scale: Double, source: Int) -> (Int, [Float]) {
        let low = Double(i) * scale, high = min(Double(i + 1) * scale, Double(source))
        let first = min(Int(low), source - 1)
        let last = max(first, min(Int((high - 1e-9).rounded(.down)), source - 1))
        var weights: [Float] = []
        for j in first...last {
            let overlap = min(high, Double(j + 1)) - max(low, Double(j))
            weights.append(Float(max(overlap, 0)))
        }
        return (first, normalized(weights))
    }

    /// Samples the kernel at source pixel centres around the output centre; when shrinking, the
    /// kernel is stretched by the scale so it averages instead of skipping pixels.
    private static func convolution(_ i: Int, scale: Double, source: Int, filter: ResamplingFilter) -> (Int, [Float]) {
        let stretch = max(scale, 1)
        let support = (filter == .bicubic ? 2.0 : 1.0) * stretch
        let centre = (Double(i) + 0.5) * scale
        let first = max(Int((centre - support + 0.5).rounded(.down)), 0)
        let end = min(Int((centre - 0.5 + support).rounded(.down)) + 1, source)
        guard first < end else {
            return (min(max(Int(centre), 0), source - 1), [1])
        }
        var weights: [Float] = []
        for j in first..<end {
            let t = (Double(j) + 0.5 - centre) / stretch
            weights.append(Float(filter == .bicubic ? cubic(t) : triangle(t)))
        }
        return (first, normalized(weights))
    }

    private static func triangle(_ t: Double) -> Double { max(0, 1 - abs(t)) }

    private static func cubic(_ t: Double) -> Double {
        let a = -0.5, x = abs(t)
        if x < 1 { return ((a + 2) * x - (a + 3)) * x * x + 1 }
        if x < 2 { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a }
        return 0
    }

    private static func normalized(_ weights: [Float]) -> [Float] {
        let sum = weights.reduce(0, +)
        guard sum != 0 else { return weights.map { _ in 1 / Float(weights.count) } }
        return weights.map { $0 / sum }
    }
}
