// The direct convolution with eight output channels per vector (see NeuralNet's
// DirectConvolution.swift): for layers with many outputs on small images (U²-Net's dilated
// convolutions at 10–40 px). Multiply then add (no fused multiply-add), in the order of the
// scalar direct kernel, so every kernel set and both direct kernels give the same bits.

/// Up to eight output channels (`lanes`) of one image: output plane `lane` (oh×ow, `output +
/// lane·oh·ow`) = `bias[lane]` + Σ over input channels c, rows ky and columns kx of
/// `weights[(c·kh + ky)·kw + kx][lane]` (8 floats per tap) · the input at (oy·sh − top + ky·dh,
/// ox·sw − left + kx·dw) of `planes[c]` (h×w); taps outside the input are skipped; ReLU if `relu`.
/// Every tap is one broadcast input times eight weights, four output pixels at a time.
public func convolveEightChannels(planes: UnsafePointer<UnsafePointer<Float>>, inChannels c: Int, h: Int, w: Int,
                                  oh: Int, ow: Int, kernel: (h: Int, w: Int), strides: (h: Int, w: Int),
                                  dilations: (h: Int, w: Int), pads: (top: Int, left: Int),
                                  weights u: UnsafePointer<Float>, bias: SIMD8<Float>, lanes: Int, relu: Bool,
                                  into output: UnsafeMutablePointer<Float>) {
    let (kh, kw) = kernel, (sh, sw) = strides, (dh, dw) = dilations, (pt, pl) = pads
    // Output columns whose taps all fall inside the row.
    let firstInside = min(ow, max(0, (pl + sw - 1) / sw))
    let endInside = max(firstInside, min(ow, w - 1 + pl - (kw - 1) * dw >= 0 ? (w - 1 + pl - (kw - 1) * dw) / sw + 1 : 0))
    @inline(__always) func store(_ sums: SIMD8<Float>, _ oy: Int, _ ox: Int) {
        for lane in 0..<lanes {
            let v = sums[lane]
            output[lane * oh * ow + oy * ow + ox] = relu ? max(v, 0) : v
        }
    }
    for oy in 0..<oh {
        let y0 = oy * sh - pt
        var ox = 0
        while ox < ow {
            if ox >= firstInside && ox + 4 <= endInside {
                // Four pixels, every column tap inside.
                var a0 = bias, a1 = bias, a2 = bias, a3 = bias
                let x0 = ox * sw - pl
                for channel in 0..<c {
                    for ky in 0..<kh {
                        let iy = y0 + ky * dh
                        if iy < 0 || iy >= h { continue }
                        let row = planes[channel] + iy * w + x0
                        let taps = u + 8 * (channel * kh + ky) * kw
                        for kx in 0..<kw {
                            let weight = load8(taps + 8 * kx), p = row + kx * dw
                            a0 += weight * SIMD8(repeating: p[0]); a1 += weight * SIMD8(repeating: p[sw])
                            a2 += weight * SIMD8(repeating: p[2 * sw]); a3 += weight * SIMD8(repeating: p[3 * sw])
                        }
                    }
                }
                store(a0, oy, ox); store(a1, oy, ox + 1); store(a2, oy, ox + 2); store(a3, oy, ox + 3)
                ox += 4
            } else {
                var a = bias
                let x0 = ox * sw - pl
                for channel in 0..<c {
                    for ky in 0..<kh {
                        let iy = y0 + ky * dh
                        if iy < 0 || iy >= h { continue }
                        let row = planes[channel] + iy * w
                        for kx in 0..<kw {
                            let ix = x0 + kx * dw
                            if ix < 0 || ix >= w { continue }
                            a += load8(u + 8 * ((channel * kh + ky) * kw + kx)) * SIMD8(repeating: row[ix])
                        }
                    }
                }
                store(a, oy, ox)
                ox += 1
            }
        }
    }
}
