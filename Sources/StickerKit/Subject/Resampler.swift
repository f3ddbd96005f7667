import Raster

/// Separable resampling of float planes: area averaging when shrinking (every source pixel counts,
/// so no aliasing), bilinear (triangle) weights when growing. Pixel centres sit at half-integers.
struct Resampler: Sendable {
    let fromWidth: Int, fromHeight: Int, toWidth: Int, toHeight: Int
    let horizontal: Taps
    let vertical: Taps

    init(fromWidth: Int, fromHeight: Int, toWidth: Int, toHeight: Int) {
        precondition(fromWidth > 0 && fromHeight > 0 && toWidth > 0 && toHeight > 0, "empty plane")
        self.fromWidth = fromWidth; self.fromHeight = fromHeight
        self.toWidth = toWidth; self.toHeight = toHeight
        horizontal = Taps(from: fromWidth, to: toWidth)
        vertical = Taps(from: fromHeight, to: toHeight)
    }

    func apply(_ source: [Float]) -> [Float] {
        precondition(source.count == fromWidth * fromHeight, "plane size mismatch")
        // Rows first (into toWidth × fromHeight), then columns.
        var rows = [Float](repeating: 0, count: toWidth * fromHeight)
        source.withUnsafeBufferPointer { src in
            rows.withUnsafeMutableBufferPointer { dst in
                for y in 0..<fromHeight {
                    let srcRow = y * fromWidth, dstRow = y * toWidth
                    for x in 0..<toWidth {
                        var sum: Float = 0
                        let start = horizontal.start[x]
                        let base = x * horizontal.stride
                        for k in 0..<horizontal.count[x] {
                            sum += src[srcRow + start + k] * horizontal.weights[base + k]
                        }
                        dst[dstRow + x] = sum
                    }
                }
            }
        }
        var out = [Float](repeating: 0, count: toWidth * toHeight)
        rows.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<toHeight {
                    let start = vertical.start[y], base = y * vertical.stride
                    let dstRow = y * toWidth
                    for k in 0..<vertical.count[y] {
                        let w = vertical.weights[base + k]
                        let srcRow = (start + k) * toWidth
                        for x in 0..<toWidth { dst[dstRow + x] += w * src[srcRow + x] }
                    }
                }
            }
        }
        return out
    }

    /// Per output index: the first source index, how many taps, and their normalised weights.
    struct Taps: Sendable {
        var start: [Int] = []
        var count: [Int] = []
        var weights: [Float] = []
        var stride = 0

        init(from n: Int, to m: Int) {
            let scale = Double(n) / Double(m)
            let shrinking = scale > 1
            // Support radius in source pixels: a box of `scale` when shrinking, a unit triangle otherwise.
            let radius = shrinking ? scale / 2 : 1
            stride = Int((2 * radius).rounded(.up)) + 2
            weights = [Float](repeating: 0, count: stride * m)
            for i in 0..<m {
                let centre = (Double(i) + 0.5) * scale
                let lo = max(0, Int((centre - radius).rounded(.down)))
                let hi = min(n - 1, Int((centre + radius).rounded(.up)))
                var taps: [Double] = []
                for j in lo...max(lo, hi) {
                    let w: Double
                    if shrinking {
                        // Overlap of source pixel [j, j+1) with the box [centre-radius, centre+radius).
                        w = max(0, min(Double(j + 1), centre + radius) - max(Double(j), centre - radius))
                    } else {
                        w = max(0, 1 - abs(Double(j) + 0.5 - centre))
                    }
                    taps.append(w)
                }
                // Bilinear at the borders: clamp to the edge pixel rather than lose weight.
                var total = taps.reduce(0, +)
                if total <= 0 { taps = [1]; total = 1 }
                start.append(lo)
                count.append(min(taps.count, stride))
                for (k, w) in taps.prefix(stride).enumerated() { weights[i * stride + k] = Float(w / total) }
            }
        }
    }
}

extension Plane {
    /// This plane resampled to `width`×`height` (area average when shrinking, bilinear when growing).
    func resampled(width: Int, height: Int) -> Plane {
        if width == self.width && height == self.height { return self }
        let r = Resampler(fromWidth: self.width, fromHeight: self.height, toWidth: width, toHeight: height)
        return Plane(width: width, height: height, values: r.apply(values))
    }
}
