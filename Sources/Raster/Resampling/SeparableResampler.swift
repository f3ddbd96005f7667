/// A value the separable resampler can accumulate: one channel (`Float`) or four (`SIMD4<Float>`).
protocol ResamplingPixel {
    static var zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Float) -> Self
}

extension Float: ResamplingPixel {}
extension SIMD4: ResamplingPixel where Scalar == Float {}

/// Resizes in two 1-D passes (rows, then columns), the standard way to make a 2-D filter cost
/// O(taps) instead of O(taps²) per pixel.
///
/// `load(i)` reads source pixel `i` (row-major) already converted for filtering; `store(y, row)`
/// receives each finished output row. Generic so the compiler specialises the loops per pixel type.
@inline(__always)
func resampleSeparable<P: ResamplingPixel>(
    sourceWidth: Int, sourceHeight: Int, width: Int, height: Int, filter: ResamplingFilter,
    load: (Int) -> P, store: (Int, UnsafeBufferPointer<P>) -> Void
) {
    let horizontal = ResamplingTaps(filter: filter, from: sourceWidth, to: width)
    let vertical = ResamplingTaps(filter: filter, from: sourceHeight, to: height)
    // Pass 1: every source row → `width` samples.
    var rows = [P](repeating: .zero, count: width * sourceHeight)
    rows.withUnsafeMutableBufferPointer { rows in
        horizontal.withBuffers { starts, counts, weights, stride in
            for y in 0..<sourceHeight {
                let sourceRow = y * sourceWidth, outRow = y * width
                for x in 0..<width {
                    let start = sourceRow + starts[x], base = x * stride
                    var sum = P.zero
                    for k in 0..<counts[x] { sum = sum + load(start &+ k) * weights[base &+ k] }
                    rows[outRow + x] = sum
                }
            }
        }
    }
    // Pass 2: for each output row, a weighted sum of whole intermediate rows (linear memory access).
    // Inner-loop index arithmetic wraps (&+): the indices are in bounds by construction, and
    // without overflow checks the compiler can vectorise the row sums.
    var line = [P](repeating: .zero, count: width)
    rows.withUnsafeBufferPointer { rows in
        line.withUnsafeMutableBufferPointer { line in
            vertical.withBuffers { starts, counts, weights, stride in
                for y in 0..<height {
                    for x in 0..<width { line[x] = .zero }
                    for k in 0..<counts[y] {
                        let weight = weights[y * stride + k]
                        let from = (starts[y] + k) * width
                        for x in 0..<width { line[x] = line[x] + rows[from &+ x] * weight }
                    }
                    store(y, UnsafeBufferPointer(line))
                }
            }
        }
    }
}

extension ResamplingTaps {
    /// The tap tables as unchecked buffers, for the inner loops.
    @inline(__always)
    func withBuffers<R>(_ body: (UnsafeBufferPointer<Int>, UnsafeBufferPointer<Int>, UnsafeBufferPointer<Float>, Int) -> R) -> R {
        starts.withUnsafeBufferPointer { starts in
            counts.withUnsafeBufferPointer { counts in
                weights.withUnsafeBufferPointer { weights in body(starts, counts, weights, stride) }
            }
        }
    }
}

/// The size that fits inside `maxDimension`×`maxDimension`, keeping the aspect ratio (never
/// below 1 pixel). Sizes that already fit are returned unchanged.
func fittingSize(width: Int, height: Int, maxDimension: Int) -> (width: Int, height: Int) {
    let longer = max(width, height)
    guard longer > maxDimension, maxDimension > 0 else { return (width, height) }
    let scale = Double(maxDimension) / Double(longer)
    return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
}
