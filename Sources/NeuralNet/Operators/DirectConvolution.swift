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
    /// broadcast input times eight weights, four output pixels at a time (`kernels`'
    /// `convolveEightChannels`). Each output sums the same products in the same order as
    /// `convolveDirect` (bias, then channel, row, column; taps outside the input skipped; multiply
    /// then add), so the two give identical results.
    func convolveAcrossChannels(planes: [UnsafePointer<Float>], h: Int, w: Int, oh: Int, ow: Int,
                                channels: Range<Int>, output: UnsafeMutablePointer<Float>, kernels: InstructionSet) {
        let taps = inChannels * kernel.h * kernel.w
        let blocks = (channels.count + 7) / 8
        // packed[block][tap][lane] = the weight of output channel lower + 8·block + lane (zeros past the end).
        var packed = [Float](repeating: 0, count: blocks * taps * 8)
        for k in channels {
            let block = (k - channels.lowerBound) / 8, lane = (k - channels.lowerBound) % 8
            for tap in 0..<taps { packed[(block * taps + tap) * 8 + lane] = weights[k * taps + tap] }
        }
        planes.withUnsafeBufferPointer { planeBuffer in
        packed.withUnsafeBufferPointer { packedBuffer in
            for block in 0..<blocks {
                let k0 = channels.lowerBound + 8 * block, lanes = min(8, channels.upperBound - k0)
                var bias8 = SIMD8<Float>()
                for lane in 0..<lanes { bias8[lane] = bias[k0 + lane] }
                kernels.convolveEightChannels(planes: planeBuffer.baseAddress!, inChannels: inChannels, h: h, w: w, oh: oh, ow: ow,
                                              kernel: kernel, strides: strides, dilations: dilations, pads: (pads[0], pads[1]),
                                              weights: packedBuffer.baseAddress! + block * taps * 8, bias: bias8, lanes: lanes,
                                              relu: fusedRelu, into: output + (k0 - channels.lowerBound) * oh * ow)
            }
        }}
    }
}
