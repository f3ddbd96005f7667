// The Winograd F(4×4, 3×3) filter transform U = G·g·Gᵀ (see NeuralNet's WinogradConvolution.swift
// for the layout), made again at each run of a layer. Plain multiplies, divides and adds: the same
// bits from every kernel set.

/// Writes U for `weights` (`outChannels × inChannels × 3 × 3`) into `out`, packed [ξ][K/4][C][4]
/// (`36 × paddedOutChannels × inChannels` floats; `paddedOutChannels` is `outChannels` rounded up
/// to a multiple of 4, whose extra channels get zeros) as `winogradProducts` reads it.
public func winogradFilterPack(_ weights: UnsafePointer<Float>, outChannels: Int, inChannels c: Int, paddedOutChannels: Int,
                               into out: UnsafeMutablePointer<Float>) {
    let blocks = paddedOutChannels / 4
    // For each input channel, the four output channels of a block are transformed together
    // and stored as 36 runs of four floats, each ξ row written sequentially.
    withUnsafeTemporaryAllocation(of: Float.self, capacity: 36 * 4) { u4 in
        let u = u4.baseAddress!
        let xiStride = blocks * c * 4
        for block in 0..<blocks {
            let lanes = min(4, outChannels - 4 * block)
            for channel in 0..<c {
                // Padding output channels (past the last real one) multiply into ignored rows: zeros.
                if lanes < 4 { u.update(repeating: 0, count: 36 * 4) }
                for lane in 0..<lanes {
                    winogradFilterTransform(weights + ((4 * block + lane) * c + channel) * 9, into: u + lane, stride: 4)
                }
                let base = (block * c + channel) * 4
                for xi in 0..<36 {
                    UnsafeMutableRawPointer(out + xi * xiStride + base)
                        .storeBytes(of: UnsafeRawPointer(u + 4 * xi).loadUnaligned(as: SIMD4<Float>.self), as: SIMD4<Float>.self)
                }
            }
        }
    }
}

/// U = G·f·Gᵀ for one 3×3 filter f (row-major), 36 values row-major (ξ = 6i + j) `stride` apart, with
/// G = [¼ 0 0; −⅙ −⅙ −⅙; −⅙ ⅙ −⅙; 1⁄24 1⁄12 ⅙; 1⁄24 −1⁄12 ⅙; 0 0 1].
@inline(__always)
private func winogradFilterTransform(_ f: UnsafePointer<Float>, into u: UnsafeMutablePointer<Float>, stride: Int) {
    // t = G·f, one 6×3 row per i, kept as three columns of SIMD8 (rows 0…5 in lanes 0…5).
    func rowsOfG(_ a: Float, _ b: Float, _ c: Float) -> SIMD8<Float> {
        let sum = a + c
        return SIMD8(a / 4, -(sum + b) / 6, -(sum - b) / 6, a / 24 + b / 12 + c / 6, a / 24 - b / 12 + c / 6, c, 0, 0)
    }
    let t0 = rowsOfG(f[0], f[3], f[6]), t1 = rowsOfG(f[1], f[4], f[7]), t2 = rowsOfG(f[2], f[5], f[8])
    // u[i][j] = Σ_r t[i][r]·G[j][r], for all i at once (lanes).
    let sum = t0 + t2
    let u0 = t0 / 4, u1 = -(sum + t1) / 6, u2 = -(sum - t1) / 6
    let u3 = t0 / 24 + t1 / 12 + t2 / 6, u4 = t0 / 24 - t1 / 12 + t2 / 6, u5 = t2
    for i in 0..<6 {
        let row = u + 6 * i * stride
        row[0] = u0[i]; row[stride] = u1[i]; row[2 * stride] = u2[i]
        row[3 * stride] = u3[i]; row[4 * stride] = u4[i]; row[5 * stride] = u5[i]
    }
}
