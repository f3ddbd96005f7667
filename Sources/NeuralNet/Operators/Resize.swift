/// Resize (opset 10/11) and Upsample of the two spatial dimensions of an NCHW tensor: nearest or
/// (bi)linear, with the coordinate conventions the exporters use.
struct Resize: Sendable {
    enum Mode: Sendable { case nearest, linear }
    enum Coordinates: Sendable { case halfPixel, pytorchHalfPixel, alignCorners, asymmetric }
    enum Rounding: Sendable { case roundPreferFloor, roundPreferCeil, floor, ceil }

    var mode: Mode
    var coordinates: Coordinates
    var rounding: Rounding
    /// Upsample and opset-10 Resize take (X, scales); opset 11 takes (X, roi, scales, sizes).
    var scalesInputIndex: Int

    init(mode: Mode, coordinates: Coordinates, rounding: Rounding = .roundPreferFloor, scalesInputIndex: Int = 2) {
        self.mode = mode
        self.coordinates = coordinates
        self.rounding = rounding
        self.scalesInputIndex = scalesInputIndex
    }

    init(node: ONNXNode) throws(ModelError) {
        switch node.attributes["mode"]?.string ?? "nearest" {
        case "nearest": mode = .nearest
        case "linear", "bilinear": mode = .linear
        case let other: throw .unsupported("\(node.label): mode \(other)")
        }
        let legacy = node.opType == "Upsample" || node.inputs.count == 2
        switch node.attributes["coordinate_transformation_mode"]?.string ?? (legacy ? "asymmetric" : "half_pixel") {
        case "half_pixel": coordinates = .halfPixel
        case "pytorch_half_pixel": coordinates = .pytorchHalfPixel
        case "align_corners": coordinates = .alignCorners
        case "asymmetric": coordinates = .asymmetric
        case let other: throw .unsupported("\(node.label): coordinate_transformation_mode \(other)")
        }
        switch node.attributes["nearest_mode"]?.string ?? (legacy ? "floor" : "round_prefer_floor") {
        case "round_prefer_floor": rounding = .roundPreferFloor
        case "round_prefer_ceil": rounding = .roundPreferCeil
        case "floor": rounding = .floor
        case "ceil": rounding = .ceil
        case let other: throw .unsupported("\(node.label): nearest_mode \(other)")
        }
        scalesInputIndex = legacy ? 1 : 2
    }

    /// The samples along each axis of `x`'s output, whose size comes from `sizes` if given, else
    /// `scales`; N and C must stay unchanged.
    func samples(for x: Tensor, scales: Tensor?, sizes: IntTensor?) throws(ModelError) -> (rows: [AxisSample], columns: [AxisSample]) {
        try samples(forShape: x.shape, scales: scales, sizes: sizes)
    }

    /// As `samples(for:scales:sizes:)`, for a tensor of `shape`.
    func samples(forShape shape: [Int], scales: Tensor?, sizes: IntTensor?) throws(ModelError) -> (rows: [AxisSample], columns: [AxisSample]) {
        guard shape.count == 4 else { throw .invalidInput("Resize expects NCHW, got shape \(shape)") }
        let (n, c, h, w) = (shape[0], shape[1], shape[2], shape[3])
        var oh: Int, ow: Int
        var scaleH: Float, scaleW: Float
        if let sizes, !sizes.scalars.isEmpty {
            guard sizes.scalars.count == 4, sizes.scalars[0] == n, sizes.scalars[1] == c,
                  sizes.scalars.allSatisfy({ $0 >= 0 && $0 < (1 << 24) }) else {
                throw .unsupported("Resize to sizes \(sizes.scalars) of a \(shape) tensor (only H and W may change)")
            }
            oh = Int(sizes.scalars[2]); ow = Int(sizes.scalars[3])
            scaleH = Float(oh) / Float(max(h, 1)); scaleW = Float(ow) / Float(max(w, 1))
        } else if let scales, scales.count == 4 {
            guard scales.scalars[0] == 1, scales.scalars[1] == 1, scales.scalars[2] > 0, scales.scalars[3] > 0 else {
                throw .unsupported("Resize by scales \(scales.scalars) (only H and W may change)")
            }
            scaleH = scales.scalars[2]; scaleW = scales.scalars[3]
            oh = Int((Float(h) * scaleH).rounded(.down)); ow = Int((Float(w) * scaleW).rounded(.down))
        } else {
            throw .invalidInput("Resize needs either 4 scales or 4 sizes")
        }
        guard shape.reduce(1, *) > 0, oh > 0, ow > 0 else { throw .invalidInput("Resize of \(shape) to \(oh)×\(ow)") }
        return (axisSamples(outSize: oh, inSize: h, scale: scaleH), axisSamples(outSize: ow, inSize: w, scale: scaleW))
    }

    /// `x` resized (see `samples(for:scales:sizes:)`).
    /// - Parameters:
    ///   - kernels: the row kernels' instruction set, resolved (a session passes its own).
    ///   - allocate: makes the output's storage (a session recycles released tensors' arrays).
    func callAsFunction(_ x: Tensor, scales: Tensor?, sizes: IntTensor?, kernels: InstructionSet = .best.resolved,
                        allocate: (Int) -> [Float] = uninitializedFloats) throws(ModelError) -> Tensor {
        let (ys, xs) = try samples(for: x, scales: scales, sizes: sizes)
        let (n, c, h, w) = (x.shape[0], x.shape[1], x.shape[2], x.shape[3])
        let (oh, ow) = (ys.count, xs.count)
        var out = allocate(n * c * oh * ow)
        var blended = [Float](repeating: 0, count: w)
        // Row by row through the same code as a convolution's fused resized input.
        x.scalars.withUnsafeBufferPointer { src in
        out.withUnsafeMutableBufferPointer { dst in
        blended.withUnsafeMutableBufferPointer { blend in
        ys.withUnsafeBufferPointer { rows in
        xs.withUnsafeBufferPointer { columns in
            let table = ResizeTable(doubling: ResizeTable.isDoubling(xs, sourceWidth: w),
                                    rows: rows.baseAddress!, columns: columns.baseAddress!)
            for plane in 0..<(n * c) {
                let s = src.baseAddress! + plane * h * w
                let d = dst.baseAddress! + plane * oh * ow
                for oy in 0..<oh {
                    table.row(oy, of: PlaneRows(s, width: w), sourceWidth: w, x0: 0, x1: ow, into: d + oy * ow, blend: blend.baseAddress!,
                              kernels: kernels)
                }
            }
        }}}}}
        return Tensor(uncheckedShape: [n, c, oh, ow], scalars: out)
    }

    /// For each output coordinate: the two input indices and their weights (nearest: one index, weight 1).
    func axisSamples(outSize: Int, inSize: Int, scale: Float) -> [AxisSample] {
        (0..<outSize).map { o in
            let of = Float(o)
            var source: Float
            switch coordinates {
            case .halfPixel: source = (of + 0.5) / scale - 0.5
            case .pytorchHalfPixel: source = outSize > 1 ? (of + 0.5) / scale - 0.5 : 0
            case .alignCorners: source = outSize > 1 ? of * Float(inSize - 1) / Float(outSize - 1) : 0
            case .asymmetric: source = of / scale
            }
            switch mode {
            case .nearest:
                var i: Int
                switch rounding {
                case .floor: i = Int(source.rounded(.down))
                case .ceil: i = Int(source.rounded(.up))
                case .roundPreferFloor: i = source == source.rounded(.down) + 0.5 ? Int(source.rounded(.down)) : Int(source.rounded())
                case .roundPreferCeil: i = Int(source.rounded(.toNearestOrAwayFromZero))
                }
                i = min(max(i, 0), inSize - 1)
                return AxisSample(i0: i, i1: i, w0: 1, w1: 0)
            case .linear:
                source = min(max(source, 0), Float(inSize - 1))
                let i0 = Int(source)
                let i1 = min(i0 + 1, inSize - 1)
                let f = source - Float(i0)
                return AxisSample(i0: i0, i1: i1, w0: 1 - f, w1: f)
            }
        }
    }
}
