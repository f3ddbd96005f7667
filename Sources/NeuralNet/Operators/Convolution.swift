/// A 2-D convolution (group 1) with constant weights, optionally followed by a fused ReLU.
/// The kernel is chosen at load time (Winograd for 3×3 stride 1, else direct).
struct Convolution: Sendable {
    let outChannels: Int
    let inChannels: Int
    let kernel: (h: Int, w: Int)
    let strides: (h: Int, w: Int)
    /// top, left, bottom, right
    let pads: [Int]
    let dilations: (h: Int, w: Int)
    /// `outChannels × inChannels × kernel.h × kernel.w`
    let weights: [Float]
    /// One per output channel (zeros when the node has none).
    let bias: [Float]
    var fusedRelu = false
    /// Whether the Winograd products take bfloat16 inputs when the kernels are `.avx512bf16` (set
    /// when the network is loaded, by its `ReducedPrecision`; float otherwise).
    var bf16Products = false
    /// The transformed filters' layout when the Winograd kernel applies (3×3, stride 1, dilation 1,
    /// more than `narrowLimit` output channels).
    let winograd: WinogradFilter?
    /// Whether the narrow kernel applies (3×3, stride 1, at most `narrowLimit` output channels).
    let narrow: Bool

    init(weights: Tensor, bias: [Float]?, strides: (Int, Int) = (1, 1), pads: [Int] = [0, 0, 0, 0],
         dilations: (Int, Int) = (1, 1)) throws(ModelError) {
        guard weights.rank == 4 else { throw .unsupported("Conv weights of shape \(weights.shape) (only 2-D convolution)") }
        outChannels = weights.shape[0]
        inChannels = weights.shape[1]
        kernel = (weights.shape[2], weights.shape[3])
        self.strides = strides
        self.pads = pads
        self.dilations = dilations
        self.weights = weights.scalars
        let b = bias ?? [Float](repeating: 0, count: outChannels)
        guard b.count == outChannels else { throw .invalidGraph("Conv bias has \(b.count) values for \(outChannels) channels") }
        self.bias = b
        narrow = kernel == (3, 3) && strides == (1, 1) && outChannels <= Self.narrowLimit
        winograd = kernel == (3, 3) && strides == (1, 1) && dilations == (1, 1) && !narrow
            ? WinogradFilter(outChannels: outChannels, inChannels: inChannels) : nil
    }

    init(node: ONNXNode, constant: (String) -> Value?) throws(ModelError) {
        guard node.inputs.count >= 2, case .float(let w)? = constant(node.inputs[1]) else {
            throw .unsupported("\(node.label): weights that are not a float initializer")
        }
        var bias: [Float]?
        if node.inputs.count >= 3, !node.inputs[2].isEmpty {
            guard case .float(let b)? = constant(node.inputs[2]) else {
                throw .unsupported("\(node.label): a bias that is not a float initializer")
            }
            bias = b.scalars
        }
        guard (node.attributes["group"]?.int ?? 1) == 1 else {
            throw .unsupported("\(node.label): grouped convolution (group \(node.attributes["group"]?.int ?? 0))")
        }
        try node.requireExplicitPadding()
        if let k = node.attributes["kernel_shape"]?.ints, k.map({ Int($0) }) != Array(w.shape.dropFirst(2)) {
            throw .invalidGraph("\(node.label): kernel_shape \(k) does not match weights \(w.shape)")
        }
        let s = try node.ints("strides", count: 2, default: 1)
        let d = try node.ints("dilations", count: 2, default: 1)
        var p = try node.ints("pads", count: 4, default: 0)
        if node.attributes["auto_pad"]?.string == "VALID" { p = [0, 0, 0, 0] }
        guard s.allSatisfy({ $0 > 0 }), d.allSatisfy({ $0 > 0 }), p.allSatisfy({ $0 >= 0 }) else {
            throw .invalidGraph("\(node.label): strides and dilations must be positive, pads not negative")
        }
        try self.init(weights: w, bias: bias, strides: (s[0], s[1]), pads: p, dilations: (d[0], d[1]))
    }

    /// Output height and width for an input of `h × w`.
    func outputSize(h: Int, w: Int) -> (h: Int, w: Int) {
        let oh = (h + pads[0] + pads[2] - dilations.h * (kernel.h - 1) - 1) / strides.h + 1
        let ow = (w + pads[1] + pads[3] - dilations.w * (kernel.w - 1) - 1) / strides.w + 1
        return (max(oh, 0), max(ow, 0))
    }

    /// Checks the input: one NCHW tensor, or several parts whose channels add up (a fused Concat)
    /// and whose sizes agree.
    func validate(_ x: [ConvolutionInput], residual: RowBands? = nil) throws(ModelError) -> (n: Int, h: Int, w: Int, oh: Int, ow: Int) {
        // Rank first: `shape` reads four dimensions.
        guard !x.isEmpty, x.allSatisfy({ $0.source.shape.count == 4 }), let first = x.first?.shape else {
            throw .invalidInput("Conv expects N×\(inChannels)×H×W, got \(x.map(\.source.shape))")
        }
        guard x.allSatisfy({ $0.shape.n == first.n && $0.shape.h == first.h && $0.shape.w == first.w }),
              x.reduce(0, { $0 + $1.shape.c }) == inChannels else {
            throw .invalidInput("Conv expects N×\(inChannels)×H×W, got \(x.map { [$0.shape.n, $0.shape.c, $0.shape.h, $0.shape.w] })")
        }
        let (oh, ow) = outputSize(h: first.h, w: first.w)
        guard first.n > 0, first.h > 0, first.w > 0, oh > 0, ow > 0 else {
            throw .invalidInput("Conv of an empty or too small \([first.n, first.c, first.h, first.w]) tensor")
        }
        if let residual {
            guard winograd != nil || narrow, residual.shape == [first.n, outChannels, oh, ow] else {
                throw .invalidInput("Conv's fused residual has shape \(residual.shape), not \([first.n, outChannels, oh, ow])")
            }
        }
        return (first.n, first.h, first.w, oh, ow)
    }
}
