// How the Winograd input transform reads its input channels, one row at a time: stored rows
// directly, resized or pooled rows computed on demand (see `ConvolutionInput`).

/// One input channel of one image as a convolution kernel reads it: rows either stored
/// (`rows` themselves) or computed on demand from `rows` into a scratch row (resized or pooled).
///
/// Plain fields, 64 bytes: the transform copies one per channel and reads its kind right away; an
/// enum with a payload made an odd-sized struct whose copy the CPU could not forward to that read
/// (a store-forwarding stall that cost as much as the transform loop around it).
struct ChannelRows {
    enum Kind: UInt8 {
        case stored
        /// Rows resized by the call's resize table `table`.
        case resized
        case pooled
    }
    /// The source plane's rows (the stored plane itself, or what is resized or pooled).
    let rows: PlaneRows
    let sourceHeight: Int
    let sourceWidth: Int
    let kind: Kind
    /// Index into the call's resize tables (resized rows only).
    var table = 0
}

/// A fused residual's rows matching a convolution's output part: `rows` is the part's first row of
/// channel 0; channel planes are `planeStride` apart.
struct ResidualRows {
    let rows: UnsafePointer<Float>
    let planeStride: Int
}

/// The sampling tables of one resized part, as raw pointers for the row loop.
struct ResizeTable {
    /// Whether the columns are an exact 2× linear upsampling (U²-Net's): output 2j blends source
    /// j − 1 and j by ¼ and ¾, output 2j + 1 sources j and j + 1 by ¾ and ¼ (edges aside), so a
    /// vector loop can compute the very same sums.
    let doubling: Bool
    let rows: UnsafePointer<AxisSample>
    let columns: UnsafePointer<AxisSample>

    /// Whether `columns` sample a `sourceWidth` row exactly as a 2× linear upsampling with half-pixel
    /// centres does (see `doubling`) away from the two ends.
    static func isDoubling(_ columns: [AxisSample], sourceWidth: Int) -> Bool {
        guard columns.count == 2 * sourceWidth, sourceWidth >= 2 else { return false }
        for x in 2..<(columns.count - 2) {
            let j = x / 2, s = columns[x]
            let expected = x % 2 == 0 ? AxisSample(i0: j - 1, i1: j, w0: 0.25, w1: 0.75)
                                      : AxisSample(i0: j, i1: j + 1, w0: 0.75, w1: 0.25)
            guard s.i0 == expected.i0, s.i1 == expected.i1, s.w0 == expected.w0, s.w1 == expected.w1 else { return false }
        }
        return true
    }
}

extension ChannelRows {
    /// Row `y` of the channel, columns `x0..<x1` valid: the stored row, or that row computed into
    /// `scratch` (whose column x holds column x). `blend` holds a source row (`sourceWidth` floats).
    @inline(__always)
    func row(_ y: Int, x0: Int, x1: Int, tables: UnsafePointer<ResizeTable>, scratch: UnsafeMutablePointer<Float>,
             blend: UnsafeMutablePointer<Float>) -> UnsafePointer<Float> {
        switch kind {
        case .stored:
            return rows[y]
        case .resized:
            tables[table].row(y, of: rows, sourceWidth: sourceWidth, x0: x0, x1: x1, into: scratch, blend: blend)
            return UnsafePointer(scratch)
        case .pooled:
            pooledRow(y, of: rows, sourceHeight: sourceHeight, sourceWidth: sourceWidth, x0: x0, x1: x1, into: scratch)
            return UnsafePointer(scratch)
        }
    }
}

extension ResizeTable {
    /// Columns `x0..<x1` of output row `y` of the resize of `plane`'s rows (`sourceWidth` wide), into
    /// `out` (column x at `out[x]`): the two source rows blended into `blend`, then sampled along
    /// the row. The Resize operator and a fused convolution input both compute rows here.
    @inline(__always)
    func row(_ y: Int, of plane: PlaneRows, sourceWidth: Int, x0: Int, x1: Int,
             into out: UnsafeMutablePointer<Float>, blend: UnsafeMutablePointer<Float>) {
        guard x0 < x1 else { return }
        let sample = rows[y]
        let r0 = plane[sample.i0], r1 = plane[sample.i1]
        let s0 = columns[x0].i0, s1 = columns[x1 - 1].i1 + 1
        for ix in s0..<s1 { blend[ix] = r0[ix] * sample.w0 + r1[ix] * sample.w1 }
        var x = x0
        func gather(_ x: Int) {
            let c = columns[x]
            out[x] = blend[c.i0] * c.w0 + blend[c.i1] * c.w1
        }
        if doubling {
            // Outputs 2j, 2j + 1 for 8 j at a time, while j − 1 and j + 8 stay inside the source.
            while x < x1, x < 2 || x % 2 == 1 { gather(x); x += 1 }
            let quarter = SIMD8<Float>(repeating: 0.25), threeQuarters = SIMD8<Float>(repeating: 0.75)
            while x + 16 <= x1, x / 2 + 8 < sourceWidth {
                let j = x / 2
                let before = UnsafeRawPointer(blend + j - 1).loadUnaligned(as: SIMD8<Float>.self)
                let here = UnsafeRawPointer(blend + j).loadUnaligned(as: SIMD8<Float>.self)
                let after = UnsafeRawPointer(blend + j + 1).loadUnaligned(as: SIMD8<Float>.self)
                var pair = SIMD16<Float>()
                pair.evenHalf = before * quarter + here * threeQuarters
                pair.oddHalf = here * threeQuarters + after * quarter
                UnsafeMutableRawPointer(out + x).storeBytes(of: pair, as: SIMD16<Float>.self)
                x += 16
            }
        }
        while x < x1 { gather(x); x += 1 }
    }
}

/// Columns `x0..<x1` of output row `y` of a 2×2, stride-2 max pooling of `plane`'s rows into `out`
/// (column x at `out[x]`); a last partial window (ceil mode) keeps what it covers. The MaxPool
/// operator and a fused convolution input both compute rows here.
@inline(__always)
func pooledRow(_ y: Int, of plane: PlaneRows, sourceHeight: Int, sourceWidth: Int, x0: Int, x1: Int,
               into out: UnsafeMutablePointer<Float>) {
    let r0 = plane[2 * y], r1 = 2 * y + 1 < sourceHeight ? plane[2 * y + 1] : r0
    var x = x0
    // 8 outputs from 16 source columns of each row while the windows are whole.
    while x + 8 <= x1, 2 * x + 16 <= sourceWidth {
        let a = UnsafeRawPointer(r0 + 2 * x).loadUnaligned(as: SIMD16<Float>.self)
        let b = UnsafeRawPointer(r1 + 2 * x).loadUnaligned(as: SIMD16<Float>.self)
        let top = larger(a.evenHalf, a.oddHalf), bottom = larger(b.evenHalf, b.oddHalf)
        UnsafeMutableRawPointer(out + x).storeBytes(of: larger(top, bottom), as: SIMD8<Float>.self)
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
