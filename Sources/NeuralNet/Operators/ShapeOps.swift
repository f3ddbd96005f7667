// The integer shape arithmetic exporters emit (Shape, Gather, Unsqueeze, Slice, Cast, Concat),
// written generically over the element type so they work on float tensors too.

/// Normalises a possibly negative axis against `rank`.
func normalizedAxis(_ axis: Int, rank: Int, op: String) throws(ModelError) -> Int {
    let a = axis < 0 ? axis + rank : axis
    guard a >= 0, a < rank else { throw .invalidInput("\(op): axis \(axis) out of range for rank \(rank)") }
    return a
}

/// Concatenates row-major arrays along `axis`.
func concatenate<T>(_ parts: [(shape: [Int], values: [T])], axis: Int) throws(ModelError) -> (shape: [Int], values: [T]) {
    guard let first = parts.first else { throw .invalidInput("Concat of no tensors") }
    let a = try normalizedAxis(axis, rank: first.shape.count, op: "Concat")
    var shape = first.shape
    shape[a] = 0
    for part in parts {
        guard part.shape.count == first.shape.count,
              part.shape.indices.allSatisfy({ $0 == a || part.shape[$0] == first.shape[$0] }) else {
            throw .invalidInput("Concat of shapes \(first.shape) and \(part.shape) along axis \(a)")
        }
        shape[a] += part.shape[a]
    }
    let outer = shape[..<a].reduce(1, *)
    let inner = shape[(a + 1)...].reduce(1, *)
    var values: [T] = []
    values.reserveCapacity(shape.reduce(1, *))
    for o in 0..<outer {
        for part in parts {
            let block = part.shape[a] * inner
            values.append(contentsOf: part.values[(o * block)..<((o + 1) * block)])
        }
    }
    return (shape, values)
}

/// Gathers slices along `axis` at `indices` (negative indices count from the end).
func gather<T>(_ values: [T], shape: [Int], indices: IntTensor, axis: Int) throws(ModelError) -> (shape: [Int], values: [T]) {
    let a = try normalizedAxis(axis, rank: shape.count, op: "Gather")
    let outer = shape[..<a].reduce(1, *)
    let inner = shape[(a + 1)...].reduce(1, *)
    let extent = shape[a]
    var result: [T] = []
    result.reserveCapacity(outer * indices.scalars.count * inner)
    for o in 0..<outer {
        for raw in indices.scalars {
            let i = raw < 0 ? Int(raw) + extent : Int(raw)
            guard i >= 0, i < extent else { throw .invalidInput("Gather index \(raw) out of range 0..<\(extent)") }
            let start = (o * extent + i) * inner
            result.append(contentsOf: values[start..<(start + inner)])
        }
    }
    return (Array(shape[..<a]) + indices.shape + Array(shape[(a + 1)...]), result)
}

/// The shape after inserting size-1 dimensions at `axes` (positions in the output).
func unsqueezedShape(_ shape: [Int], axes: [Int]) throws(ModelError) -> [Int] {
    let rank = shape.count + axes.count
    var normalized: [Int] = []
    for axis in axes { normalized.append(try normalizedAxis(axis, rank: rank, op: "Unsqueeze")) }
    guard Set(normalized).count == normalized.count else { throw .invalidInput("Unsqueeze with repeated axes \(axes)") }
    var result: [Int] = []
    var source = shape.makeIterator()
    for i in 0..<rank { result.append(normalized.contains(i) ? 1 : (source.next() ?? 1)) }
    return result
}

/// Slice with ONNX semantics: per-axis start/end clamped to the extent, optional negative steps.
func slice<T>(_ values: [T], shape: [Int], starts: [Int64], ends: [Int64], axes: [Int64]?, steps: [Int64]?) throws(ModelError) -> (shape: [Int], values: [T]) {
    guard starts.count == ends.count else { throw .invalidInput("Slice with \(starts.count) starts and \(ends.count) ends") }
    let rank = shape.count
    var begin = [Int](repeating: 0, count: rank)
    var step = [Int](repeating: 1, count: rank)
    var outShape = shape
    for j in starts.indices {
        let axis = try normalizedAxis(Int(axes?[j] ?? Int64(j)), rank: rank, op: "Slice")
        let s = Int(steps?[j] ?? 1)
        guard s != 0 else { throw .invalidInput("Slice with step 0") }
        let dim = shape[axis]
        func clampBound(_ raw: Int64, low: Int, high: Int) -> Int {
            let v = raw < 0 ? raw + Int64(dim) : raw
            return Int(min(max(v, Int64(low)), Int64(high)))
        }
        let b: Int, e: Int
        if s > 0 {
            b = clampBound(starts[j], low: 0, high: dim)
            e = clampBound(ends[j], low: 0, high: dim)
        } else {
            b = clampBound(starts[j], low: 0, high: dim - 1)
            e = clampBound(ends[j], low: -1, high: dim - 1)
        }
        begin[axis] = b
        step[axis] = s
        outShape[axis] = s > 0 ? max(0, (e - b + s - 1) / s) : max(0, (b - e - s - 1) / -s)
    }
    var strides = [Int](repeating: 1, count: rank)
    for i in stride(from: rank - 2, through: 0, by: -1) { strides[i] = strides[i + 1] * shape[i + 1] }
    let count = outShape.reduce(1, *)
    var result: [T] = []
    result.reserveCapacity(count)
    var index = [Int](repeating: 0, count: rank)
    for _ in 0..<count {
        var offset = 0
        for d in 0..<rank { offset += (begin[d] + index[d] * step[d]) * strides[d] }
        result.append(values[offset])
        var d = rank - 1
        while d >= 0 {
            index[d] += 1
            if index[d] < outShape[d] { break }
            index[d] = 0
            d -= 1
        }
    }
    return (outShape, result)
}
