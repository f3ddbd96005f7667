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
    /// `scratch` (whose column x holds column x) by `kernels`. `blend` holds a source row
    /// (`sourceWidth` floats).
    @inline(__always)
    func row(_ y: Int, x0: Int, x1: Int, tables: UnsafePointer<ResizeTable>, scratch: UnsafeMutablePointer<Float>,
             blend: UnsafeMutablePointer<Float>, kernels: InstructionSet) -> UnsafePointer<Float> {
        switch kind {
        case .stored:
            return rows[y]
        case .resized:
            tables[table].row(y, of: rows, sourceWidth: sourceWidth, x0: x0, x1: x1, into: scratch, blend: blend, kernels: kernels)
            return UnsafePointer(scratch)
        case .pooled:
            pooledRow(y, of: rows, sourceHeight: sourceHeight, sourceWidth: sourceWidth, x0: x0, x1: x1, into: scratch,
                      kernels: kernels)
            return UnsafePointer(scratch)
        }
    }
}

extension ResizeTable {
    /// Columns `x0..<x1` of output row `y` of the resize of `plane`'s rows (`sourceWidth` wide), into
    /// `out` (column x at `out[x]`): the two source rows blended into `blend`, then sampled along
    /// the row (the `kernels`' `resizedRow`). The Resize operator and a fused convolution input both
    /// compute rows here.
    @inline(__always)
    func row(_ y: Int, of plane: PlaneRows, sourceWidth: Int, x0: Int, x1: Int,
             into out: UnsafeMutablePointer<Float>, blend: UnsafeMutablePointer<Float>, kernels: InstructionSet) {
        let sample = rows[y]
        kernels.resizedRow(plane[sample.i0], plane[sample.i1], w0: sample.w0, w1: sample.w1, columns: columns, doubling: doubling,
                           sourceWidth: sourceWidth, x0: x0, x1: x1, into: out, blend: blend)
    }
}

/// Columns `x0..<x1` of output row `y` of a 2×2, stride-2 max pooling of `plane`'s rows into `out`
/// (column x at `out[x]`); a last partial window (ceil mode) keeps what it covers. The MaxPool
/// operator and a fused convolution input both compute rows here (the `kernels`' `pooledRow`).
@inline(__always)
func pooledRow(_ y: Int, of plane: PlaneRows, sourceHeight: Int, sourceWidth: Int, x0: Int, x1: Int,
               into out: UnsafeMutablePointer<Float>, kernels: InstructionSet) {
    let r0 = plane[2 * y], r1 = 2 * y + 1 < sourceHeight ? plane[2 * y + 1] : r0
    kernels.pooledRow(r0, r1, sourceWidth: sourceWidth, x0: x0, x1: x1, into: out)
}
