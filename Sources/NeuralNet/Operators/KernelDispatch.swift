import NeuralNetPortable
#if arch(x86_64)
import NeuralNetAVX2
#endif

/// The resize tables' samples, one type for NeuralNet and every kernel module.
typealias AxisSample = NeuralNetPortable.AxisSample

// The kernels compiled for each instruction set, called through the one `resolved` for the CPU.
// An AVX-512 CPU has AVX2 too: where NeuralNetAVX512 has no wider kernel (the 8-tile edges of a
// row, the narrow and direct convolutions, resized and pooled rows, the filter transform) it
// takes NeuralNetAVX2's.
extension InstructionSet {
    @inline(__always)
    func winogradInputColumns(_ r: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>,
                                    UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>),
                              x0: Int, x1: Int, into t: UnsafeMutablePointer<Float>, stride: Int) {
        #if arch(x86_64)
        if self != .portable {
            return NeuralNetAVX2.winogradInputColumns(r.0, r.1, r.2, r.3, r.4, r.5, x0: x0, x1: x1, into: t, stride: stride)
        }
        #endif
        NeuralNetPortable.winogradInputColumns(r.0, r.1, r.2, r.3, r.4, r.5, x0: x0, x1: x1, into: t, stride: stride)
    }

    @inline(__always)
    func winogradInputGroup(_ t: UnsafePointer<Float>, stride: Int, into v: UnsafeMutablePointer<Float>, xiStride: Int) {
        #if arch(x86_64)
        if self != .portable { return NeuralNetAVX2.winogradInputGroup(t, stride: stride, into: v, xiStride: xiStride) }
        #endif
        NeuralNetPortable.winogradInputGroup(t, stride: stride, into: v, xiStride: xiStride)
    }

    @inline(__always)
    func winogradProducts(u: UnsafePointer<Float>, v: UnsafePointer<Float>, m: UnsafeMutablePointer<Float>,
                          mStride: Int, inChannels: Int, paddedOutChannels: Int, slots: Int) {
        #if arch(x86_64)
        if self != .portable {
            return NeuralNetAVX2.winogradProducts(u: u, v: v, m: m, mStride: mStride, inChannels: inChannels,
                                                  paddedOutChannels: paddedOutChannels, slots: slots)
        }
        #endif
        NeuralNetPortable.winogradProducts(u: u, v: v, m: m, mStride: mStride, inChannels: inChannels,
                                           paddedOutChannels: paddedOutChannels, slots: slots)
    }

    @inline(__always)
    func winogradOutputGroup(_ m: UnsafePointer<Float>, xiStride: Int, bias: Float, relu: Bool,
                             into plane: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>?,
                             row0: Int, rowsLeft: Int, tileX0: Int, tilesX: Int, width: Int) {
        #if arch(x86_64)
        if self != .portable {
            return NeuralNetAVX2.winogradOutputGroup(m, xiStride: xiStride, bias: bias, relu: relu, into: plane, residual: residual,
                                                     row0: row0, rowsLeft: rowsLeft, tileX0: tileX0, tilesX: tilesX, width: width)
        }
        #endif
        NeuralNetPortable.winogradOutputGroup(m, xiStride: xiStride, bias: bias, relu: relu, into: plane, residual: residual,
                                              row0: row0, rowsLeft: rowsLeft, tileX0: tileX0, tilesX: tilesX, width: width)
    }

    @inline(__always)
    func narrowTapSums(into out: UnsafeMutablePointer<Float>, from rows: UnsafePointer<UnsafePointer<Float>?>,
                       channels: Int, filter: UnsafePointer<Float>, bias: Float, column: Int, dx: Int, count: Int) {
        #if arch(x86_64)
        if self != .portable {
            return NeuralNetAVX2.narrowTapSums(into: out, from: rows, channels: channels, filter: filter, bias: bias,
                                               column: column, dx: dx, count: count)
        }
        #endif
        NeuralNetPortable.narrowTapSums(into: out, from: rows, channels: channels, filter: filter, bias: bias,
                                        column: column, dx: dx, count: count)
    }

    @inline(__always)
    func resizedRow(_ r0: UnsafePointer<Float>, _ r1: UnsafePointer<Float>, w0: Float, w1: Float,
                    columns: UnsafePointer<AxisSample>, doubling: Bool, sourceWidth: Int, x0: Int, x1: Int,
                    into out: UnsafeMutablePointer<Float>, blend: UnsafeMutablePointer<Float>) {
        #if arch(x86_64)
        if self != .portable {
            return NeuralNetAVX2.resizedRow(r0, r1, w0: w0, w1: w1, columns: columns, doubling: doubling, sourceWidth: sourceWidth,
                                            x0: x0, x1: x1, into: out, blend: blend)
        }
        #endif
        NeuralNetPortable.resizedRow(r0, r1, w0: w0, w1: w1, columns: columns, doubling: doubling, sourceWidth: sourceWidth,
                                     x0: x0, x1: x1, into: out, blend: blend)
    }

    @inline(__always)
    func pooledRow(_ r0: UnsafePointer<Float>, _ r1: UnsafePointer<Float>, sourceWidth: Int, x0: Int, x1: Int,
                   into out: UnsafeMutablePointer<Float>) {
        #if arch(x86_64)
        if self != .portable { return NeuralNetAVX2.pooledRow(r0, r1, sourceWidth: sourceWidth, x0: x0, x1: x1, into: out) }
        #endif
        NeuralNetPortable.pooledRow(r0, r1, sourceWidth: sourceWidth, x0: x0, x1: x1, into: out)
    }

    @inline(__always)
    func convolveEightChannels(planes: UnsafePointer<UnsafePointer<Float>>, inChannels: Int, h: Int, w: Int, oh: Int, ow: Int,
                               kernel: (h: Int, w: Int), strides: (h: Int, w: Int), dilations: (h: Int, w: Int),
                               pads: (top: Int, left: Int), weights: UnsafePointer<Float>, bias: SIMD8<Float>, lanes: Int,
                               relu: Bool, into output: UnsafeMutablePointer<Float>) {
        #if arch(x86_64)
        if self != .portable {
            return NeuralNetAVX2.convolveEightChannels(planes: planes, inChannels: inChannels, h: h, w: w, oh: oh, ow: ow, kernel: kernel,
                                                       strides: strides, dilations: dilations, pads: pads, weights: weights,
                                                       bias: bias, lanes: lanes, relu: relu, into: output)
        }
        #endif
        NeuralNetPortable.convolveEightChannels(planes: planes, inChannels: inChannels, h: h, w: w, oh: oh, ow: ow, kernel: kernel,
                                                strides: strides, dilations: dilations, pads: pads, weights: weights,
                                                bias: bias, lanes: lanes, relu: relu, into: output)
    }

    @inline(__always)
    func winogradFilterPack(_ weights: UnsafePointer<Float>, outChannels: Int, inChannels: Int, paddedOutChannels: Int,
                            into out: UnsafeMutablePointer<Float>) {
        #if arch(x86_64)
        if self != .portable {
            return NeuralNetAVX2.winogradFilterPack(weights, outChannels: outChannels, inChannels: inChannels,
                                                    paddedOutChannels: paddedOutChannels, into: out)
        }
        #endif
        NeuralNetPortable.winogradFilterPack(weights, outChannels: outChannels, inChannels: inChannels,
                                             paddedOutChannels: paddedOutChannels, into: out)
    }
}
