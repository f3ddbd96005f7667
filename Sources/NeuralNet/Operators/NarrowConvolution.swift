/// A 3×3 stride-1 convolution with very few output channels (U²-Net's side outputs: 64 → 1).
/// Winograd's input transform costs the same whatever the number of outputs and here nothing
/// amortises it (7 GMAC/s on the 320 px side output, against 80–170 for the wide layers); summing
/// the nine shifted input rows straight into registers takes about half the CPU (measured in
/// docs/benchmarks.md). Any dilation and padding; split over tasks by bands of rows, like Winograd.
extension Convolution {
    /// Up to this many output channels a 3×3 stride-1 convolution takes the narrow kernel (its cost
    /// grows with the outputs, Winograd's hardly: at 4 they would be about even).
    static let narrowLimit = 2

    /// Output rows `rows` (clipped to `oh`) of every output channel of one image, whose input
    /// channel c is `channels[c]` (stored rows). `output` points at row `rows.lowerBound` of
    /// channel 0; channel planes are `planeStride` apart. `residual`, if any, is added to every
    /// output value after the ReLU.
    func convolveNarrow(channels: [ChannelRows], h: Int, w: Int, oh: Int, ow: Int, rows: Range<Int>,
                        output: UnsafeMutablePointer<Float>, planeStride: Int, residual: ResidualRows?,
                        kernels: InstructionSet) {
        precondition(channels.allSatisfy { $0.kind == .stored }, "the narrow kernel reads stored rows only")
        let c = inChannels, (pt, pl) = (pads[0], pads[1]), (dy, dx) = (dilations.h, dilations.w)
        // Columns whose nine taps all lie inside the row: 64 at a time in registers, the rest one by one.
        let firstInside = min(ow, max(0, pl)), endInside = max(firstInside, min(ow, w + pl - 2 * dx))
        withUnsafeTemporaryAllocation(of: UnsafePointer<Float>?.self, capacity: 3 * c) { sourceRows in
        weights.withUnsafeBufferPointer { weightsBuffer in
            for oy in rows where oy < oh {
                for channel in 0..<c {
                    for ky in 0..<3 {
                        let iy = oy - pt + ky * dy
                        sourceRows[3 * channel + ky] = iy >= 0 && iy < h ? channels[channel].rows[iy] : nil
                    }
                }
                for k in 0..<outChannels {
                    let out = output + k * planeStride + (oy - rows.lowerBound) * ow
                    let filter = weightsBuffer.baseAddress! + k * c * 9
                    // Border columns, taps outside the row skipped. (Multiply then add, where the
                    // interior blocks fuse them: a column's rounding depends on where it lies, never on
                    // how the rows are split over tasks.)
                    func tapSum(_ x: Int) -> Float {
                        var sum = bias[k]
                        for channel in 0..<c {
                            for ky in 0..<3 {
                                guard let source = sourceRows[3 * channel + ky] else { continue }
                                for kx in 0..<3 {
                                    let ix = x - pl + kx * dx
                                    if ix >= 0 && ix < w { sum += filter[(channel * 3 + ky) * 3 + kx] * source[ix] }
                                }
                            }
                        }
                        return sum
                    }
                    var x = 0
                    while x < firstInside { out[x] = tapSum(x); x += 1 }
                    let vectorColumns = (endInside - x) / 8 * 8
                    kernels.narrowTapSums(into: out + x, from: sourceRows.baseAddress!, channels: c, filter: filter,
                                          bias: bias[k], column: x - pl, dx: dx, count: vectorColumns)
                    x += vectorColumns
                    while x < ow { out[x] = tapSum(x); x += 1 }
                    if fusedRelu { for x in 0..<ow { out[x] = max(out[x], 0) } }
                    if let residual {
                        let r = residual.rows + k * residual.planeStride + (oy - rows.lowerBound) * ow
                        for x in 0..<ow { out[x] += r[x] }
                    }
                }
            }
        }}
    }
}
