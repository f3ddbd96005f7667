#if NEURALNET_AVX2
import NeuralNetPortable  // AxisSample: the resize tables' one type, shared with NeuralNet
#endif

// The rows of a resized or 2×2 max-pooled channel (see NeuralNet's ChannelRows.swift): computed
// where a Winograd convolution's input transform reads them, and by the Resize and MaxPool
// operators. Plain multiplies and adds (no fused multiply-add), so every kernel set gives the same
// bits.

/// Columns `x0..<x1` of one output row of a resize, into `out` (column x at `out[x]`): source rows
/// `r0` and `r1` blended, `b[i] = r0[i]·w0 + r1[i]·w1`, then sampled along the row,
/// `out[x] = b[i0]·w0 + b[i1]·w1` of `columns[x]`. `blend` is room for the blended row
/// (`sourceWidth` floats). `doubling`: the columns are an exact 2× linear upsampling of a
/// `sourceWidth` row away from its two ends (output 2j blends source j − 1 and j by ¼ and ¾, output
/// 2j + 1 sources j and j + 1 by ¾ and ¼), which a vector loop computes with the very same sums.
public func resizedRow(_ r0: UnsafePointer<Float>, _ r1: UnsafePointer<Float>, w0: Float, w1: Float,
                       columns: UnsafePointer<AxisSample>, doubling: Bool, sourceWidth: Int, x0: Int, x1: Int,
                       into out: UnsafeMutablePointer<Float>, blend: UnsafeMutablePointer<Float>) {
    guard x0 < x1 else { return }
    guard doubling else {
        // Any sampling: the source columns read blended once, then gathered.
        let s0 = columns[x0].i0, s1 = columns[x1 - 1].i1 + 1
        for ix in s0..<s1 { blend[ix] = r0[ix] * w0 + r1[ix] * w1 }
        for x in x0..<x1 {
            let c = columns[x]
            out[x] = blend[c.i0] * c.w0 + blend[c.i1] * c.w1
        }
        return
    }
    // 2× upsampling: the blended values computed where they are used, from the source rows. Read
    // back from `blend` right after being written, they stalled the loads (a vector load spanning
    // two stores still in flight cannot be forwarded from them): a third of this kernel's time.
    @inline(__always) func blended(_ i: Int) -> Float { r0[i] * w0 + r1[i] * w1 }
    @inline(__always) func gather(_ x: Int) {
        let c = columns[x]
        out[x] = blended(c.i0) * c.w0 + blended(c.i1) * c.w1
    }
    var x = x0
    // Outputs 2j, 2j + 1 for 8 j at a time, while j − 1 and j + 8 stay inside the source.
    while x < x1, x < 2 || x % 2 == 1 { gather(x); x += 1 }
    let weight0 = SIMD8<Float>(repeating: w0), weight1 = SIMD8<Float>(repeating: w1)
    let quarter = SIMD8<Float>(repeating: 0.25), threeQuarters = SIMD8<Float>(repeating: 0.75)
    while x + 16 <= x1, x / 2 + 8 < sourceWidth {
        let j = x / 2
        let before = load8(r0 + j - 1) * weight0 + load8(r1 + j - 1) * weight1
        let here = load8(r0 + j) * weight0 + load8(r1 + j) * weight1
        let after = load8(r0 + j + 1) * weight0 + load8(r1 + j + 1) * weight1
        var pair = SIMD16<Float>()
        pair.evenHalf = before * quarter + here * threeQuarters
        pair.oddHalf = here * threeQuarters + after * quarter
        UnsafeMutableRawPointer(out + x).storeBytes(of: pair, as: SIMD16<Float>.self)
        x += 16
    }
    while x < x1 { gather(x); x += 1 }
}

/// Columns `x0..<x1` of one output row of a 2×2, stride-2 max pooling of source rows `r0` and `r1`
/// (`sourceWidth` wide; the same row twice for a last partial window), into `out` (column x at
/// `out[x]`); a last partial column window (ceil mode) keeps what it covers.
public func pooledRow(_ r0: UnsafePointer<Float>, _ r1: UnsafePointer<Float>, sourceWidth: Int, x0: Int, x1: Int,
                      into out: UnsafeMutablePointer<Float>) {
    var x = x0
    // 8 outputs from 16 source columns of each row while the windows are whole.
    while x + 8 <= x1, 2 * x + 16 <= sourceWidth {
        let a = UnsafeRawPointer(r0 + 2 * x).loadUnaligned(as: SIMD16<Float>.self)
        let b = UnsafeRawPointer(r1 + 2 * x).loadUnaligned(as: SIMD16<Float>.self)
        let top = larger(a.evenHalf, a.oddHalf), bottom = larger(b.evenHalf, b.oddHalf)
        store8(larger(top, bottom), out + x)
        x += 8
    }
    while x < x1 {
        let xb = 2 * x + 1 < sourceWidth ? 2 * x + 1 : 2 * x
        out[x] = Swift.max(Swift.max(r0[2 * x], r0[xb]), Swift.max(r1[2 * x], r1[xb]))
        x += 1
    }
}

/// Lane-wise `Swift.max(a, b)` (b where b ≥ a, else a: the same choice for NaNs and signed
/// zeros as the scalar loop). The standard library's `pointwiseMax` is a generic per-lane call.
@inline(__always)
private func larger(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    a.replacing(with: b, where: b .>= a)
}
