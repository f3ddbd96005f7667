import BoundedConcurrency

/// Mean over a (2r+1)² window, in O(1) per pixel (running sums), windows clipped at the borders
/// and normalised by the pixels they really cover.
struct BoxFilter: Sendable {
    let width: Int
    let height: Int
    let radius: Int
    /// 1 / (pixels covered) per row and per column position; the product is the window's.
    private let inverseColumnCounts: [Float]
    private let inverseRowCounts: [Float]

    init(width: Int, height: Int, radius: Int) {
        self.width = width; self.height = height; self.radius = radius
        func inverseCounts(_ n: Int) -> [Float] {
            (0..<n).map { i in 1 / Float(min(n - 1, i + radius) - max(0, i - radius) + 1) }
        }
        inverseColumnCounts = inverseCounts(width)
        inverseRowCounts = inverseCounts(height)
    }

    func mean(_ plane: [Float]) -> [Float] {
        var out = [Float](unsafeUninitializedCapacity: width * height) { _, count in count = width * height }
        mean(plane, into: &out)
        return out
    }

    /// The window means of `plane × weight` (pixel by pixel), without a product plane: a fresh
    /// megapixel array costs more in page faults than the multiplications.
    func mean(_ plane: [Float], times weight: [Float]) -> [Float] {
        var out = [Float](unsafeUninitializedCapacity: width * height) { _, count in count = width * height }
        mean(plane, times: weight, into: &out)
        return out
    }

    /// The means of several planes at once, one child task per plane (they are independent).
    func means(_ planes: [[Float]]) async -> [[Float]] {
        await concurrentMap(planes) { mean($0) }
    }

    func mean(_ plane: [Float], times weight: [Float]? = nil, into out: inout [Float]) {
        let w = width, h = height, r = radius
        precondition(plane.count == w * h && out.count == w * h && (weight?.count ?? w * h) == w * h,
                     "box filter plane of the wrong size")
        // Horizontal running sums into `out`: the window's left and right ends are tested per
        // segment (entering, inside, leaving the row), not per pixel, so the inner loop is branch-free.
        // Four rows run at once, one per lane: a running sum is a chain of dependent adds, and four
        // independent chains keep the adder busy (each lane does exactly the scalar arithmetic).
        // A last group of fewer rows repeats its last row in the spare lanes (same values, same place).
        // With a weight, each row's products are formed in a row buffer first.
        let weighted = weight != nil
        var productRows = [Float](repeating: 0, count: weighted ? 4 * w : 0)
        let weights = weight ?? []
        plane.withUnsafeBufferPointer { srcBuffer in
            out.withUnsafeMutableBufferPointer { dstBuffer in
                inverseColumnCounts.withUnsafeBufferPointer { inverseBuffer in
                weights.withUnsafeBufferPointer { weightBuffer in
                productRows.withUnsafeMutableBufferPointer { productBuffer in
                    let inverse = inverseBuffer.baseAddress!
                    func source(_ y: Int, lane: Int) -> UnsafePointer<Float> {
                        let src = UnsafePointer(srcBuffer.baseAddress! + y * w)
                        guard weighted else { return src }
                        // (An empty array's buffer may still have a base address: test `weighted`.)
                        let weightRow = weightBuffer.baseAddress! + y * w, product = productBuffer.baseAddress! + lane * w
                        for x in 0..<w { product[x] = src[x] * weightRow[x] }
                        return UnsafePointer(product)
                    }
                    for y0 in stride(from: 0, to: h, by: 4) {
                        let y1 = min(y0 + 1, h - 1), y2 = min(y0 + 2, h - 1), y3 = min(y0 + 3, h - 1)
                        let s0 = source(y0, lane: 0), s1 = source(y1, lane: 1), s2 = source(y2, lane: 2), s3 = source(y3, lane: 3)
                        let base = dstBuffer.baseAddress!
                        let d0 = base + y0 * w, d1 = base + y1 * w, d2 = base + y2 * w, d3 = base + y3 * w
                        @inline(__always) func load(_ x: Int) -> SIMD4<Float> { SIMD4(s0[x], s1[x], s2[x], s3[x]) }
                        @inline(__always) func store(_ sum: SIMD4<Float>, _ x: Int) {
                            let v = sum * SIMD4(repeating: inverse[x])
                            d0[x] = v[0]; d1[x] = v[1]; d2[x] = v[2]; d3[x] = v[3]
                        }
                        var sum = SIMD4<Float>()
                        for x in 0..<min(r, w) { sum += load(x) }
                        var x = 0
                        // Left border: nothing leaves the window yet.
                        while x < w && x - r - 1 < 0 {
                            if x + r < w { sum += load(x + r) }
                            store(sum, x); x += 1
                        }
                        // Interior: one value enters, one leaves.
                        while x + r < w {
                            sum += load(x + r) - load(x - r - 1)
                            store(sum, x); x += 1
                        }
                        // Right border: values only leave.
                        while x < w {
                            sum -= load(x - r - 1)
                            store(sum, x); x += 1
                        }
                    }
                }}}
            }
        }
        // Vertical running sums in place: the rows a sum must drop have been overwritten by then,
        // so the last r+1 rows' horizontal sums are kept in a small ring (row y−r−1 shares y's slot).
        var sumsArray = [Float](repeating: 0, count: w)
        let slots = r + 1
        var ringArray = [Float](repeating: 0, count: slots * w)
        out.withUnsafeMutableBufferPointer { bufBuffer in
            ringArray.withUnsafeMutableBufferPointer { keepBuffer in
                sumsArray.withUnsafeMutableBufferPointer { sumsBuffer in
                    let buf = bufBuffer.baseAddress!, keep = keepBuffer.baseAddress!, sums = sumsBuffer.baseAddress!
                    for y in 0..<min(r, h) { let row = buf + y * w; for x in 0..<w { sums[x] += row[x] } }
                    for y in 0..<h {
                        let row = buf + y * w, slot = keep + (y % slots) * w
                        if y + r < h { let entering = buf + (y + r) * w; for x in 0..<w { sums[x] += entering[x] } }
                        if y - r - 1 >= 0 { for x in 0..<w { sums[x] -= slot[x] } }
                        slot.update(from: row, count: w)
                        let inv = inverseRowCounts[y]
                        for x in 0..<w { row[x] = sums[x] * inv }
                    }
                }
            }
        }
    }
}
