extension Convolution {
    /// The general kernel (any size, stride, dilation, padding): output channels `channels` of one
    /// image, accumulated row by row so the row being summed stays in L1 while the input rows stream.
    /// `planes[c]` is the image's input channel c (h×w); `output` receives `channels.count` planes of oh×ow.
    func convolveDirect(planes: [UnsafePointer<Float>], h: Int, w: Int, oh: Int, ow: Int,
                        channels: Range<Int>, output: UnsafeMutablePointer<Float>) {
        let kh = kernel.h, kw = kernel.w
        let (pt, pl) = (pads[0], pads[1])
        weights.withUnsafeBufferPointer { wb in
            let wp = wb.baseAddress!
            for k in channels {
                let plane = output + (k - channels.lowerBound) * oh * ow
                for oy in 0..<oh {
                    let row = plane + oy * ow
                    row.update(repeating: bias[k], count: ow)
                    for c in 0..<inChannels {
                        for ky in 0..<kh {
                            let iy = oy * strides.h - pt + ky * dilations.h
                            if iy < 0 || iy >= h { continue }
                            let inRow = planes[c] + iy * w
                            for kx in 0..<kw {
                                let weight = wp[((k * inChannels + c) * kh + ky) * kw + kx]
                                let shift = kx * dilations.w - pl
                                // ox such that 0 <= ox*stride + shift < w
                                let lo = shift >= 0 ? 0 : (-shift + strides.w - 1) / strides.w
                                let hi = min(ow, w - shift <= 0 ? 0 : (w - shift - 1) / strides.w + 1)
                                if lo >= hi { continue }
                                if strides.w == 1 {
                                    let src = inRow + shift
                                    for ox in lo..<hi { row[ox] += weight * src[ox] }
                                } else {
                                    for ox in lo..<hi { row[ox] += weight * inRow[ox * strides.w + shift] }
                                }
                            }
                        }
                    }
                    if fusedRelu {
                        for ox in 0..<ow { row[ox] = max(row[ox], 0) }
                    }
                }
            }
        }
    }
}

extension Convolution {
    /// The direct kernel with eight output channels per vector (lanes), for layers with many
    /// outputs on small images (U²-Net's dilated convolutions at 10–40 px): every tap is one
    /// broadcast input times eight weights, four output pixels at a time. Each output sums the same
    /// products in the same order as `convolveDirect` (bias, then channel, row, column; taps outside
    /// the input skipped; multiply then add), so the two give identical results.
    func convolveAcrossChannels(planes: [UnsafePointer<Float>], h: Int, w: Int, oh: Int, ow: Int,
                                channels: Range<Int>, output: UnsafeMutablePointer<Float>) {
        let (kh, kw, c) = (kernel.h, kernel.w, inChannels)
        let (pt, pl) = (pads[0], pads[1])
        let (sh, sw, dh, dw) = (strides.h, strides.w, dilations.h, dilations.w)
        let taps = c * kh * kw
        let blocks = (channels.count + 7) / 8
        // packed[block][tap] = the weights of output channels lower + 8·block + 0…7 (zeros past the end).
        var packed = [SIMD8<Float>](repeating: SIMD8(), count: blocks * taps)
        for k in channels {
            let block = (k - channels.lowerBound) / 8, lane = (k - channels.lowerBound) % 8
            for tap in 0..<taps { packed[block * taps + tap][lane] = weights[k * taps + tap] }
        }
        // Output columns whose taps all fall inside the row.
        let firstInside = min(ow, max(0, (pl + sw - 1) / sw))
        let endInside = max(firstInside, min(ow, w - 1 + pl - (kw - 1) * dw >= 0 ? (w - 1 + pl - (kw - 1) * dw) / sw + 1 : 0))
        packed.withUnsafeBufferPointer { packedBuffer in
            for block in 0..<blocks {
                let k0 = channels.lowerBound + 8 * block, lanes = min(8, channels.upperBound - k0)
                var bias8 = SIMD8<Float>()
                for lane in 0..<lanes { bias8[lane] = bias[k0 + lane] }
                let u = packedBuffer.baseAddress! + block * taps
                func store(_ sums: SIMD8<Float>, _ oy: Int, _ ox: Int) {
                    for lane in 0..<lanes {
                        let v = sums[lane]
                        output[((k0 - channels.lowerBound) + lane) * oh * ow + oy * ow + ox] = fusedRelu ? max(v, 0) : v
                    }
                }
                for oy in 0..<oh {
                    let y0 = oy * sh - pt
                    var ox = 0
                    while ox < ow {
                        if ox >= firstInside && ox + 4 <= endInside {
                            // Four pixels, every column tap inside.
                            var a0 = bias8, a1 = bias8, a2 = bias8, a3 = bias8
                            let x0 = ox * sw - pl
                            for channel in 0..<c {
                                for ky in 0..<kh {
                                    let iy = y0 + ky * dh
                                    if iy < 0 || iy >= h { continue }
                                    let row = planes[channel] + iy * w + x0
                                    let tapBase = (channel * kh + ky) * kw
                                    for kx in 0..<kw {
                                        let weight = u[tapBase + kx], p = row + kx * dw
                                        a0 += weight * SIMD8(repeating: p[0]); a1 += weight * SIMD8(repeating: p[sw])
                                        a2 += weight * SIMD8(repeating: p[2 * sw]); a3 += weight * SIMD8(repeating: p[3 * sw])
                                    }
                                }
                            }
                            store(a0, oy, ox); store(a1, oy, ox + 1); store(a2, oy, ox + 2); store(a3, oy, ox + 3)
                            ox += 4
                        } else {
                            var a = bias8
                            let x0 = ox * sw - pl
                            for channel in 0..<c {
                                for ky in 0..<kh {
                                    let iy = y0 + ky * dh
                                    if iy < 0 || iy >= h { continue }
                                    let row = planes[channel] + iy * w
                                    for kx in 0..<kw {
                                        let ix = x0 + kx * dw
                                        if ix < 0 || ix >= w { continue }
                                        a += u[(channel * kh + ky) * kw + kx] * SIMD8(repeating: row[ix])
                                    }
                                }
                            }
                            store(a, oy, ox)
                            ox += 1
                        }
                    }
                }
            }
        }
    }
}
