// The Winograd F(4×4, 3×3) filter transform U = G·g·Gᵀ (see NeuralNet's WinogradConvolution.swift
// for the layout), made again at each run of a layer. Plain multiplies, divides and adds: the same
// bits from every kernel set.

/// Writes U for `weights` (`outChannels × inChannels × 3 × 3`) into `out`, packed [ξ][K/4][C][4]
/// (`36 × paddedOutChannels × inChannels` floats; `paddedOutChannels` is `outChannels` rounded up
/// to a multiple of 4, whose extra channels get zeros) as `winogradProducts` reads it.
///
/// Eight filters at once, one per lane: the four output channels of a block for two consecutive
/// input channels, which is the order U keeps them in, so each ξ's eight values are one store.
public func winogradFilterPack(_ weights: UnsafePointer<Float>, outChannels: Int, inChannels c: Int, paddedOutChannels: Int,
                               into out: UnsafeMutablePointer<Float>) {
    let xiStride = paddedOutChannels * c
    withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 9) { taps in
        let f = taps.baseAddress!
        for block in 0..<(paddedOutChannels / 4) {
            let lanes = min(4, outChannels - 4 * block)
            var channel = 0
            while channel < c {
                let pair = min(2, c - channel)
                // f[tap] lane 4p + l: tap of output channel 4·block + l, input channel + p (zeros for
                // padding output channels and past the last input channel).
                f.update(repeating: .zero, count: 9)
                for p in 0..<pair {
                    for l in 0..<lanes {
                        let filter = weights + ((4 * block + l) * c + channel + p) * 9
                        for tap in 0..<9 { f[tap][4 * p + l] = filter[tap] }
                    }
                }
                // t = G·f, column by column; then U's row i = G·(row i of t).
                let t0 = columnOfG(f[0], f[3], f[6]), t1 = columnOfG(f[1], f[4], f[7]), t2 = columnOfG(f[2], f[5], f[8])
                let u = out + (block * c + channel) * 4
                @inline(__always) func store(_ i: Int, _ row: Rows) {
                    let at = u + 6 * i * xiStride
                    if pair == 2 {
                        store8(row.0, at); store8(row.1, at + xiStride); store8(row.2, at + 2 * xiStride)
                        store8(row.3, at + 3 * xiStride); store8(row.4, at + 4 * xiStride); store8(row.5, at + 5 * xiStride)
                    } else {
                        store4(row.0, at); store4(row.1, at + xiStride); store4(row.2, at + 2 * xiStride)
                        store4(row.3, at + 3 * xiStride); store4(row.4, at + 4 * xiStride); store4(row.5, at + 5 * xiStride)
                    }
                }
                store(0, rowsOfG(t0.0, t1.0, t2.0)); store(1, rowsOfG(t0.1, t1.1, t2.1)); store(2, rowsOfG(t0.2, t1.2, t2.2))
                store(3, rowsOfG(t0.3, t1.3, t2.3)); store(4, rowsOfG(t0.4, t1.4, t2.4)); store(5, rowsOfG(t0.5, t1.5, t2.5))
                channel += 2
            }
        }
    }
}

private typealias Rows = (SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>, SIMD8<Float>)

/// G·(a, b, c) with G = [¼ 0 0; −⅙ −⅙ −⅙; −⅙ ⅙ −⅙; 1⁄24 1⁄12 ⅙; 1⁄24 −1⁄12 ⅙; 0 0 1], lane by lane.
/// (A vector's prefix minus is 0 − x, which turns −0 into +0: as the transform always computed
/// this second product.)
@inline(__always)
private func rowsOfG(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> Rows {
    let sum = a + c
    return (a / 4, -(sum + b) / 6, -(sum - b) / 6, a / 24 + b / 12 + c / 6, a / 24 - b / 12 + c / 6, c)
}

/// As `rowsOfG`, with the sign flipped as a scalar minus flips it (−0 for +0), as the transform
/// always computed this first product (one filter at a time): the same bits, zeros included.
@inline(__always)
private func columnOfG(_ a: SIMD8<Float>, _ b: SIMD8<Float>, _ c: SIMD8<Float>) -> Rows {
    let sum = a + c, minus = SIMD8<Float>(repeating: -1)
    return (a / 4, (sum + b) * minus / 6, (sum - b) * minus / 6, a / 24 + b / 12 + c / 6, a / 24 - b / 12 + c / 6, c)
}

/// The low four lanes of `value` at `p`.
@inline(__always)
private func store4(_ value: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: value.lowHalf, as: SIMD4<Float>.self)
}
