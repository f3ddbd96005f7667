/// MaxPool over the two spatial dimensions of an NCHW tensor.
struct Pooling: Sendable {
    var kernel: (h: Int, w: Int)
    var strides: (h: Int, w: Int)
    /// top, left, bottom, right
    var pads: [Int]
    var dilations: (h: Int, w: Int)
    var ceilMode: Bool

    init(kernel: (Int, Int), strides: (Int, Int), pads: [Int] = [0, 0, 0, 0], dilations: (Int, Int) = (1, 1), ceilMode: Bool) {
        self.kernel = kernel
        self.strides = strides
        self.pads = pads
        self.dilations = dilations
        self.ceilMode = ceilMode
    }

    init(node: ONNXNode) throws(ModelError) {
        guard let k = node.attributes["kernel_shape"]?.ints, k.count == 2 else {
            throw .unsupported("\(node.label): only 2-D pooling with kernel_shape is implemented")
        }
        try node.requireExplicitPadding()
        let s = try node.ints("strides", count: 2, default: 1)
        let d = try node.ints("dilations", count: 2, default: 1)
        var p = try node.ints("pads", count: 4, default: 0)
        if node.attributes["auto_pad"]?.string == "VALID" { p = [0, 0, 0, 0] }
        guard k.allSatisfy({ $0 > 0 }), s.allSatisfy({ $0 > 0 }), d.allSatisfy({ $0 > 0 }), p.allSatisfy({ $0 >= 0 }) else {
            throw .invalidGraph("\(node.label): kernel, strides and dilations must be positive")
        }
        self.init(kernel: (Int(k[0]), Int(k[1])), strides: (s[0], s[1]), pads: p, dilations: (d[0], d[1]),
                  ceilMode: (node.attributes["ceil_mode"]?.int ?? 0) != 0)
    }

    func outputSize(_ size: Int, kernel: Int, stride: Int, padBefore: Int, padAfter: Int, dilation: Int) -> Int {
        let span = size + padBefore + padAfter - dilation * (kernel - 1) - 1
        func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
        // Ceil mode keeps a last window that only partly overlaps the input (even a 1-pixel input).
        var out = max(0, floorDivide(ceilMode ? span + stride - 1 : span, stride) + 1)
        // As in PyTorch and ONNX Runtime, a ceil-mode window must start inside the input or left padding.
        if ceilMode, (out - 1) * stride >= size + padBefore { out -= 1 }
        return out
    }

    /// - Parameters:
    ///   - kernels: the row kernel's instruction set, resolved (a session passes its own).
    ///   - allocate: makes the output's storage (a session recycles released tensors' arrays).
    func callAsFunction(_ x: Tensor, kernels: InstructionSet = .best.resolved,
                        allocate: (Int) -> [Float] = uninitializedFloats) throws(ModelError) -> Tensor {
        guard x.rank == 4 else { throw .invalidInput("MaxPool expects NCHW, got shape \(x.shape)") }
        let (n, c, h, w) = (x.shape[0], x.shape[1], x.shape[2], x.shape[3])
        let oh = outputSize(h, kernel: kernel.h, stride: strides.h, padBefore: pads[0], padAfter: pads[2], dilation: dilations.h)
        let ow = outputSize(w, kernel: kernel.w, stride: strides.w, padBefore: pads[1], padAfter: pads[3], dilation: dilations.w)
        guard x.count > 0, oh > 0, ow > 0 else { throw .invalidInput("MaxPool of an empty or too small \(x.shape) tensor") }
        var out = allocate(n * c * oh * ow)
        x.scalars.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for plane in 0..<(n * c) {
                    let s = src.baseAddress! + plane * h * w
                    let d = dst.baseAddress! + plane * oh * ow
                    if kernel == (2, 2), strides == (2, 2), dilations == (1, 1), pads[0] == 0, pads[1] == 0 {
                        // U²-Net's pooling: 2×2 windows, the last row/column possibly partial (ceil mode),
                        // through the same code as a convolution's fused pooled input.
                        for oy in 0..<oh {
                            pooledRow(oy, of: PlaneRows(s, width: w), sourceHeight: h, sourceWidth: w, x0: 0, x1: ow, into: d + oy * ow,
                                      kernels: kernels)
                        }
                        continue
                    }
                    for oy in 0..<oh {
                        let y0 = oy * strides.h - pads[0]
                        for ox in 0..<ow {
                            let x0 = ox * strides.w - pads[1]
                            var m = -Float.infinity
                            for ky in 0..<kernel.h {
                                let y = y0 + ky * dilations.h
                                if y < 0 || y >= h { continue }
                                for kx in 0..<kernel.w {
                                    let xx = x0 + kx * dilations.w
                                    if xx < 0 || xx >= w { continue }
                                    m = Swift.max(m, s[y * w + xx])
                                }
                            }
                            d[oy * ow + ox] = m
                        }
                    }
                }
            }
        }
        return Tensor(uncheckedShape: [n, c, oh, ow], scalars: out)
    }
}
