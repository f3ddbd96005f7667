import Foundation

extension Tensor {
    func relu() -> Tensor {
        Tensor(uncheckedShape: shape, scalars: scalars.withUnsafeBufferPointer { src in
            [Float](unsafeUninitializedCapacity: src.count) { dst, count in
                for i in 0..<src.count { dst[i] = src[i] > 0 ? src[i] : 0 }
                count = src.count
            }
        })
    }

    func sigmoid() -> Tensor {
        Tensor(uncheckedShape: shape, scalars: scalars.map { 1 / (1 + expf(-$0)) })
    }
}

/// The shape two operands broadcast to under NumPy rules, or nil when they are incompatible.
func broadcastShape(_ a: [Int], _ b: [Int]) -> [Int]? {
    let rank = max(a.count, b.count)
    var result = [Int](repeating: 1, count: rank)
    for i in 0..<rank {
        let da = i < rank - a.count ? 1 : a[i - (rank - a.count)]
        let db = i < rank - b.count ? 1 : b[i - (rank - b.count)]
        guard da == db || da == 1 || db == 1 else { return nil }
        result[i] = da == 1 ? db : da
    }
    return result
}

/// Applies `op` element by element with NumPy broadcasting.
func broadcasting<T>(_ a: [T], _ aShape: [Int], _ b: [T], _ bShape: [Int],
                     _ op: (T, T) -> T) throws(ModelError) -> (shape: [Int], values: [T]) {
    guard let shape = broadcastShape(aShape, bShape) else {
        throw .invalidInput("shapes \(aShape) and \(bShape) do not broadcast")
    }
    if aShape == bShape { return (shape, zip(a, b).map(op)) }
    if b.count == 1 { let s = b[0]; return (shape, a.map { op($0, s) }) }
    if a.count == 1 { let s = a[0]; return (shape, b.map { op(s, $0) }) }
    // Strides of each operand in the output's index space (0 along broadcast dimensions).
    func strides(_ s: [Int]) -> [Int] {
        let padded = [Int](repeating: 1, count: shape.count - s.count) + s
        var result = [Int](repeating: 0, count: shape.count)
        var step = 1
        for i in stride(from: shape.count - 1, through: 0, by: -1) {
            result[i] = padded[i] == 1 ? 0 : step
            step *= padded[i]
        }
        return result
    }
    let sa = strides(aShape), sb = strides(bShape)
    let count = shape.reduce(1, *)
    var values: [T] = []
    values.reserveCapacity(count)
    var index = [Int](repeating: 0, count: shape.count)
    var ia = 0, ib = 0
    for _ in 0..<count {
        values.append(op(a[ia], b[ib]))
        var d = shape.count - 1
        while d >= 0 {
            index[d] += 1; ia += sa[d]; ib += sb[d]
            if index[d] < shape[d] { break }
            ia -= sa[d] * shape[d]; ib -= sb[d] * shape[d]; index[d] = 0
            d -= 1
        }
    }
    return (shape, values)
}

extension BinaryOperator {
    func apply(_ a: Value, _ b: Value) throws(ModelError) -> Value {
        switch (a, b) {
        case (.float(let x), .float(let y)) where x.shape == y.shape:
            // The common case (U²-Net's residual Adds): a straight vectorisable loop.
            let values = x.scalars.withUnsafeBufferPointer { a in
                y.scalars.withUnsafeBufferPointer { b in
                    [Float](unsafeUninitializedCapacity: a.count) { out, count in
                        switch self {
                        case .add: for i in 0..<a.count { out[i] = a[i] + b[i] }
                        case .subtract: for i in 0..<a.count { out[i] = a[i] - b[i] }
                        case .multiply: for i in 0..<a.count { out[i] = a[i] * b[i] }
                        case .divide: for i in 0..<a.count { out[i] = a[i] / b[i] }
                        }
                        count = a.count
                    }
                }
            }
            return .float(Tensor(uncheckedShape: x.shape, scalars: values))
        case (.float(let x), .float(let y)):
            let op: (Float, Float) -> Float = switch self {
            case .add: (+)
            case .subtract: (-)
            case .multiply: (*)
            case .divide: (/)
            }
            let r = try broadcasting(x.scalars, x.shape, y.scalars, y.shape, op)
            return .float(Tensor(uncheckedShape: r.shape, scalars: r.values))
        case (.int(let x), .int(let y)):
            let op: (Int64, Int64) -> Int64 = switch self {
            case .add: (&+)
            case .subtract: (&-)
            case .multiply: (&*)
            case .divide: { $1 == 0 ? 0 : $0 / $1 }
            }
            let r = try broadcasting(x.scalars, x.shape, y.scalars, y.shape, op)
            return .int(IntTensor(shape: r.shape, scalars: r.values))
        default:
            throw .invalidInput("\(self) of a float and an integer tensor")
        }
    }
}
