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
                        output: UnsafeMutablePointer<Float>, planeStride: Int, residual: ResidualRows?) {
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
                    while x + 64 <= endInside {
                        sumTaps(into: out + x, from: sourceRows.baseAddress!, channels: c, filter: filter, bias: bias[k],
                                column: x - pl, dx: dx)
                        x += 64
                    }
                    while x + 8 <= endInside {
                        sumTaps8(into: out + x, from: sourceRows.baseAddress!, channels: c, filter: filter, bias: bias[k],
                                 column: x - pl, dx: dx)
                        x += 8
                    }
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

/// out[0..<64] = bias + Σ over channels, rows ky and taps kx of filter · row[column + kx·dx + i]:
/// eight SIMD8 accumulators held in registers over all 9·C taps.
@inline(__always)
private func sumTaps(into out: UnsafeMutablePointer<Float>, from rows: UnsafePointer<UnsafePointer<Float>?>, channels: Int,
                     filter: UnsafePointer<Float>, bias: Float, column: Int, dx: Int) {
    var a0 = SIMD8<Float>(repeating: bias), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0
    for tapRow in 0..<(3 * channels) {
        guard let row = rows[tapRow] else { continue }
        for kx in 0..<3 {
            let weight = SIMD8<Float>(repeating: filter[tapRow * 3 + kx])
            let p = UnsafeRawPointer(row + column + kx * dx)
            a0.addProduct(weight, p.loadUnaligned(as: SIMD8<Float>.self))
            a1.addProduct(weight, p.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self))
            a2.addProduct(weight, p.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self))
            a3.addProduct(weight, p.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self))
            a4.addProduct(weight, p.loadUnaligned(fromByteOffset: 128, as: SIMD8<Float>.self))
            a5.addProduct(weight, p.loadUnaligned(fromByteOffset: 160, as: SIMD8<Float>.self))
            a6.addProduct(weight, p.loadUnaligned(fromByteOffset: 192, as: SIMD8<Float>.self))
            a7.addProduct(weight, p.loadUnaligned(fromByteOffset: 224, as: SIMD8<Float>.self))
        }
    }
    let o = UnsafeMutableRawPointer(out)
    o.storeBytes(of: a0, as: SIMD8<Float>.self); o.storeBytes(of: a1, toByteOffset: 32, as: SIMD8<Float>.self)
    o.storeBytes(of: a2, toByteOffset: 64, as: SIMD8<Float>.self); o.storeBytes(of: a3, toByteOffset: 96, as: SIMD8<Float>.self)
    o.storeBytes(of: a4, toByteOffset: 128, as: SIMD8<Float>.self); o.storeBytes(of: a5, toByteOffset: 160, as: SIMD8<Float>.self)
    o.storeBytes(of: a6, toByteOffset: 192, as: SIMD8<Float>.self); o.storeBytes(of: a7, toByteOffset: 224, as: SIMD8<Float>.self)
}

/// As `sumTaps`, for 8 columns.
@inline(__always)
private func sumTaps8(into out: UnsafeMutablePointer<Float>, from rows: UnsafePointer<UnsafePointer<Float>?>, channels: Int,
                      filter: UnsafePointer<Float>, bias: Float, column: Int, dx: Int) {
    var a = SIMD8<Float>(repeating: bias)
    for tapRow in 0..<(3 * channels) {
        guard let row = rows[tapRow] else { continue }
        for kx in 0..<3 {
            a.addProduct(SIMD8(repeating: filter[tapRow * 3 + kx]), UnsafeRawPointer(row + column + kx * dx).loadUnaligned(as: SIMD8<Float>.self))
        }
    }
    UnsafeMutableRawPointer(out).storeBytes(of: a, as: SIMD8<Float>.self)
}
