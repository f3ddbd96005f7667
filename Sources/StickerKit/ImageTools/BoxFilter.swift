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

    /// `blocked`: the horizontal interior four columns at a time (false: one at a time, the
    /// reference the blocked path is pinned against in a test; the values are the same).
    func mean(_ plane: [Float], times weight: [Float]? = nil, into out: inout [Float], blocked: Bool = true) {
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
                        // Interior, four columns at a time: each row's four values are loaded as one
                        // vector (entering and leaving), the 4×4 block transposed so that a lane is a row
                        // again, and the sums formed as one column at a time forms them (the same adds
                        // in the same order); the four results go back transposed, one store per row.
                        // Eight scalar loads and four scalar stores per column cost more than the adds.
                        @inline(__always) func rows(_ x: Int) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
                            transposed(UnsafeRawPointer(s0 + x).loadUnaligned(as: SIMD4<Float>.self),
                                       UnsafeRawPointer(s1 + x).loadUnaligned(as: SIMD4<Float>.self),
                                       UnsafeRawPointer(s2 + x).loadUnaligned(as: SIMD4<Float>.self),
                                       UnsafeRawPointer(s3 + x).loadUnaligned(as: SIMD4<Float>.self))
                        }
                        while blocked && x + 3 + r < w {
                            let entering = rows(x + r), leaving = rows(x - r - 1)
                            sum += entering.0 - leaving.0; let v0 = sum * SIMD4(repeating: inverse[x])
                            sum += entering.1 - leaving.1; let v1 = sum * SIMD4(repeating: inverse[x + 1])
                            sum += entering.2 - leaving.2; let v2 = sum * SIMD4(repeating: inverse[x + 2])
                            sum += entering.3 - leaving.3; let v3 = sum * SIMD4(repeating: inverse[x + 3])
                            let out = transposed(v0, v1, v2, v3)
                            UnsafeMutableRawPointer(d0 + x).storeBytes(of: out.0, as: SIMD4<Float>.self)
                            UnsafeMutableRawPointer(d1 + x).storeBytes(of: out.1, as: SIMD4<Float>.self)
                            UnsafeMutableRawPointer(d2 + x).storeBytes(of: out.2, as: SIMD4<Float>.self)
                            UnsafeMutableRawPointer(d3 + x).storeBytes(of: out.3, as: SIMD4<Float>.self)
                            x += 4
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

    /// The 4×4 matrix of rows `a`…`d`, transposed.
    @inline(__always)
    private func transposed(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ c: SIMD4<Float>, _ d: SIMD4<Float>)
        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (SIMD4(a[0], b[0], c[0], d[0]), SIMD4(a[1], b[1], c[1], d[1]), SIMD4(a[2], b[2], c[2], d[2]), SIMD4(a[3], b[3], c[3], d[3]))
    }
}
