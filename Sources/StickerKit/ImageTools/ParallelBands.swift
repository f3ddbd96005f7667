// Splitting whole-picture work over the cores: independent planes or row bands run as child
// tasks (BoundedConcurrency's `concurrentMap`), each on its own copy-on-write inputs, and their
// results are joined in order. No shared mutable buffer: a band writes only its own array.

/// `0..<count` in at most `bands` consecutive, nearly equal, non-empty ranges.
func rowBands(_ count: Int, count bands: Int) -> [Range<Int>] {
    let n = max(1, min(bands, count))
    return (0..<n).map { count * $0 / n..<count * ($0 + 1) / n }
}

/// The bands' elements in order, each band freed as soon as it is copied, so the peak memory is the
/// whole plus one band rather than twice the whole.
func joinedBands<Element>(_ parts: consuming [[Element]]) -> [Element] {
    var joined: [Element] = []
    joined.reserveCapacity(parts.reduce(0) { $0 + $1.count })
    for i in parts.indices {
        joined.append(contentsOf: parts[i])
        parts[i] = []
    }
    return joined
}
