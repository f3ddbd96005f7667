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
