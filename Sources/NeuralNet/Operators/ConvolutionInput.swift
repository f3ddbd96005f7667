/// Where a convolution's input channels come from. U²-Net's decoders feed each convolution the
/// concatenation of an upsampled (Resize) tensor and a skip tensor, and each encoder level starts
/// with a 2×2 MaxPool; materialising those tensors costs a serial pass and, at 320 px, 26 MB of
/// fresh memory per look. A Winograd convolution instead computes the few rows of them it is about
/// to read (the load-time plan decides; see `NeuralNetwork`).
///
/// Plan level: indices into a step's `inputs`.
enum ConvolutionPart: Sendable {
    /// The tensor at `input`, channels as they are.
    case tensor(input: Int)
    /// `Resize` (linear or nearest) of the tensor at `input`, to the size its `scales` or `sizes` input gives.
    case resized(Resize, input: Int, scales: Int?, sizes: Int?)
    /// 2×2, stride-2 MaxPool (no padding) of the tensor at `input`.
    case pooled(Pooling, input: Int)
}

/// Run level: one part of a convolution's input channels, with its output size resolved.
enum ConvolutionInput: Sendable {
    case tensor(Tensor)
    /// The resize's samples: for each output row and column, two source indices and their weights.
    case resized(Tensor, rows: [AxisSample], columns: [AxisSample])
    /// `height × width` of 2×2 maxima (a last partial window keeps what it covers: ceil mode).
    case pooled(Tensor, height: Int, width: Int)

    /// The tensor the channels are read from.
    var source: Tensor {
        switch self {
        case .tensor(let t), .resized(let t, _, _), .pooled(let t, _, _): t
        }
    }

    /// N, C, H, W of the channels the convolution sees.
    var shape: (n: Int, c: Int, h: Int, w: Int) {
        let s = source.shape
        switch self {
        case .tensor: return (s[0], s[1], s[2], s[3])
        case .resized(_, let rows, let columns): return (s[0], s[1], rows.count, columns.count)
        case .pooled(_, let height, let width): return (s[0], s[1], height, width)
        }
    }
}

/// One output coordinate of a linear resize: `value = v[i0]·w0 + v[i1]·w1`.
struct AxisSample: Sendable {
    var i0: Int
    var i1: Int
    var w0: Float
    var w1: Float
}

extension Pooling {
    /// Whether a convolution can read this pooling's output without it being materialised.
    var fusesIntoConvolution: Bool {
        kernel == (2, 2) && strides == (2, 2) && dilations == (1, 1) && pads.allSatisfy { $0 == 0 }
    }
}

/// One input channel of one image as the Winograd input transform reads it: rows either stored
/// (`plane` itself) or computed on demand from `plane` into a scratch row (resized or pooled).
struct ChannelRows {
    enum Kind {
        case stored
        /// Index into the call's resize tables.
        case resized(table: Int)
        case pooled
    }
    /// The source plane (the stored plane itself, or what is resized or pooled).
    let plane: UnsafePointer<Float>
    let sourceHeight: Int
    let sourceWidth: Int
    let kind: Kind
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
    let columnIndex0: UnsafePointer<Int>
    let columnIndex1: UnsafePointer<Int>
    let columnWeight0: UnsafePointer<Float>
    let columnWeight1: UnsafePointer<Float>
}

extension ChannelRows {
    /// Row `y` of the channel, columns `x0..<x1` valid: the stored row, or that row computed into
    /// `scratch` (whose column x holds column x). `blend` holds a source row (`sourceWidth` floats).
    @inline(__always)
    func row(_ y: Int, x0: Int, x1: Int, tables: UnsafePointer<ResizeTable>, scratch: UnsafeMutablePointer<Float>,
             blend: UnsafeMutablePointer<Float>) -> UnsafePointer<Float> {
        switch kind {
        case .stored:
            return plane + y * sourceWidth
        case .resized(let index):
            guard x0 < x1 else { return UnsafePointer(scratch) }
            // The same arithmetic, in the same order, as the Resize operator: blend the two source
            // rows, then sample along the row.
            let t = tables[index]
            let sample = t.rows[y]
            let r0 = plane + sample.i0 * sourceWidth, r1 = plane + sample.i1 * sourceWidth
            let s0 = t.columnIndex0[x0], s1 = t.columnIndex1[x1 - 1] + 1
            for ix in s0..<s1 { blend[ix] = r0[ix] * sample.w0 + r1[ix] * sample.w1 }
            var x = x0
            func gather(_ x: Int) {
                scratch[x] = blend[t.columnIndex0[x]] * t.columnWeight0[x] + blend[t.columnIndex1[x]] * t.columnWeight1[x]
            }
            if t.doubling {
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
                    UnsafeMutableRawPointer(scratch + x).storeBytes(of: pair, as: SIMD16<Float>.self)
                    x += 16
                }
            }
            while x < x1 { gather(x); x += 1 }
            return UnsafePointer(scratch)
        case .pooled:
            let r0 = plane + 2 * y * sourceWidth, r1 = 2 * y + 1 < sourceHeight ? r0 + sourceWidth : r0
            var x = x0
            // 8 outputs from 16 source columns of each row while the windows are whole.
            while x + 8 <= x1, 2 * x + 16 <= sourceWidth {
                let a = UnsafeRawPointer(r0 + 2 * x).loadUnaligned(as: SIMD16<Float>.self)
                let b = UnsafeRawPointer(r1 + 2 * x).loadUnaligned(as: SIMD16<Float>.self)
                let top = larger(a.evenHalf, a.oddHalf), bottom = larger(b.evenHalf, b.oddHalf)
                UnsafeMutableRawPointer(scratch + x).storeBytes(of: larger(top, bottom), as: SIMD8<Float>.self)
                x += 8
            }
            while x < x1 {
                let xb = 2 * x + 1 < sourceWidth ? 2 * x + 1 : 2 * x
                scratch[x] = Swift.max(Swift.max(r0[2 * x], r0[xb]), Swift.max(r1[2 * x], r1[xb]))
                x += 1
            }
            return UnsafePointer(scratch)
        }
    }
}

/// Lane-wise `Swift.max(a, b)` (b where b ≥ a, else a: the same choice for NaNs and signed
/// zeros as the scalar loop). The standard library's `pointwiseMax` is a generic per-lane call.
@inline(__always)
private func larger(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    a.replacing(with: b, where: b .>= a)
}
