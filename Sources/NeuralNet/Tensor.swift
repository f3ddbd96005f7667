/// A dense float32 tensor in row-major order (NCHW for images): the values a network reads and
/// writes. A value type backed by a Swift array, so it is Sendable and copies share storage until
/// one is mutated.
public struct Tensor: Sendable, Equatable {
    /// The extent of each dimension, outermost first, e.g. `[1, 3, 320, 320]`.
    public let shape: [Int]
    /// `shape.reduce(1, *)` values, last dimension fastest.
    public var scalars: [Float]

    /// A tensor holding `scalars`; throws when their count does not match `shape`.
    public init(shape: [Int], scalars: [Float]) throws(ModelError) {
        guard shape.allSatisfy({ $0 >= 0 }), shape.reduce(1, *) == scalars.count else {
            throw .invalidInput("\(scalars.count) values do not fill a tensor of shape \(shape)")
        }
        self.shape = shape
        self.scalars = scalars
    }

    /// A tensor of `shape` with every element `value`.
    public init(shape: [Int], repeating value: Float = 0) {
        self.shape = shape.map { Swift.max($0, 0) }
        self.scalars = [Float](repeating: value, count: self.shape.reduce(1, *))
    }

    /// Internal: callers guarantee the count matches.
    init(uncheckedShape shape: [Int], scalars: [Float]) {
        self.shape = shape
        self.scalars = scalars
    }

    public var count: Int { scalars.count }
    public var rank: Int { shape.count }
}

/// An int64 tensor: ONNX graphs compute shapes, indices and sizes with these.
struct IntTensor: Sendable, Equatable {
    let shape: [Int]
    var scalars: [Int64]
}

/// A value flowing along one edge of the graph.
enum Value: Sendable {
    case float(Tensor)
    case int(IntTensor)
    /// A float tensor in row bands, as a convolution split over tasks leaves it.
    case bands(RowBands)

    var shape: [Int] {
        switch self {
        case .float(let t): t.shape
        case .int(let t): t.shape
        case .bands(let b): b.shape
        }
    }
}

/// An array of `count` floats whose values the caller must all write before reading them (an
/// output buffer): skips the zero-fill that `Array(repeating:count:)` costs on large tensors.
func uninitializedFloats(_ count: Int) -> [Float] {
    [Float](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
}
