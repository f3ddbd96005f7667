// The narrow 3×3 convolution's inner kernel (see NeuralNet's NarrowConvolution.swift): the nine
// shifted input rows of every channel summed into registers, 64 or 8 output columns at a time.

/// out[0..<count] (count a multiple of 8) = bias + Σ over tap rows (3 per channel; nil rows are
/// outside the image) and taps kx of filter · row[column + kx·dx + i].
public func narrowTapSums(into out: UnsafeMutablePointer<Float>, from rows: UnsafePointer<UnsafePointer<Float>?>,
                          channels: Int, filter: UnsafePointer<Float>, bias: Float, column: Int, dx: Int, count: Int) {
    var x = 0
    while x + 64 <= count {
        sumTaps(into: out + x, from: rows, channels: channels, filter: filter, bias: bias, column: column + x, dx: dx)
        x += 64
    }
    while x + 8 <= count {
        sumTaps8(into: out + x, from: rows, channels: channels, filter: filter, bias: bias, column: column + x, dx: dx)
        x += 8
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
            multiplyAdd(&a0, weight, p.loadUnaligned(as: SIMD8<Float>.self))
            multiplyAdd(&a1, weight, p.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self))
            multiplyAdd(&a2, weight, p.loadUnaligned(fromByteOffset: 64, as: SIMD8<Float>.self))
            multiplyAdd(&a3, weight, p.loadUnaligned(fromByteOffset: 96, as: SIMD8<Float>.self))
            multiplyAdd(&a4, weight, p.loadUnaligned(fromByteOffset: 128, as: SIMD8<Float>.self))
            multiplyAdd(&a5, weight, p.loadUnaligned(fromByteOffset: 160, as: SIMD8<Float>.self))
            multiplyAdd(&a6, weight, p.loadUnaligned(fromByteOffset: 192, as: SIMD8<Float>.self))
            multiplyAdd(&a7, weight, p.loadUnaligned(fromByteOffset: 224, as: SIMD8<Float>.self))
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
            multiplyAdd(&a, SIMD8(repeating: filter[tapRow * 3 + kx]), UnsafeRawPointer(row + column + kx * dx).loadUnaligned(as: SIMD8<Float>.self))
        }
    }
    UnsafeMutableRawPointer(out).storeBytes(of: a, as: SIMD8<Float>.self)
}
