/// Where a convolution's input channels come from. U²-Net's decoders feed each convolution the
/// concatenation of an upsampled (Resize) tensor and a skip tensor, and each encoder level starts
/// with a 2×2 MaxPool; materialising those tensors costs a serial pass and, at 320 px, 26 MB of
/// fresh memory per look. A Winograd convolution instead computes the few rows of them it is about
/// to read (the load-time plan decides; see `FusionPlan`).
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

/// Run level: one part of a convolution's input channels, with its output size resolved. The
/// source tensor may be in row bands (the output of a convolution split over tasks).
enum ConvolutionInput: Sendable {
    case tensor(RowBands)
    /// The resize's samples: for each output row and column, two source indices and their weights.
    case resized(RowBands, rows: [AxisSample], columns: [AxisSample])
    /// `height × width` of 2×2 maxima (a last partial window keeps what it covers: ceil mode).
    case pooled(RowBands, height: Int, width: Int)

    /// A whole tensor's channels as they are.
    static func tensor(_ t: Tensor) -> ConvolutionInput { .tensor(RowBands(t)) }

    /// The tensor the channels are read from.
    var source: RowBands {
        switch self {
        case .tensor(let t), .resized(let t, _, _), .pooled(let t, _, _): t
        }
    }

    /// The same part with its source in one array (for a kernel that reads whole planes).
    var joined: ConvolutionInput {
        switch self {
        case .tensor(let t): .tensor(RowBands(t.joined))
        case .resized(let t, let rows, let columns): .resized(RowBands(t.joined), rows: rows, columns: columns)
        case .pooled(let t, let height, let width): .pooled(RowBands(t.joined), height: height, width: width)
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

extension Pooling {
    /// Whether a convolution can read this pooling's output without it being materialised.
    var fusesIntoConvolution: Bool {
        kernel == (2, 2) && strides == (2, 2) && dilations == (1, 1) && pads.allSatisfy { $0 == 0 }
    }
}
