import BoundedConcurrency

/// Exact Euclidean distance transform (Felzenszwalb & Huttenlocher, "Distance Transforms of Sampled
/// Functions", 2012): two passes of the 1-D lower envelope of parabolas, O(pixels).
enum DistanceTransform {
    /// Squared distance from every pixel to the nearest pixel where `isFeature` is true
    /// (`.infinity` everywhere when there is none).
    static func squaredDistances(width: Int, height: Int, isFeature: (Int) -> Bool) -> [Float] {
        let count = width * height
        var d = [Float](repeating: .infinity, count: count)
        for i in 0..<count where isFeature(i) { d[i] = 0 }
        let n = max(width, height)
        var f = [Float](repeating: 0, count: n)
        var out = [Float](repeating: 0, count: n)
        var v = [Int](repeating: 0, count: n)
        var z = [Float](repeating: 0, count: n + 1)
        // Columns, then rows.
        for x in 0..<width {
            for y in 0..<height { f[y] = d[y * width + x] }
            transform1D(&f, count: height, into: &out, v: &v, z: &z)
            for y in 0..<height { d[y * width + x] = out[y] }
        }
        for y in 0..<height {
            let row = y * width
            for x in 0..<width { f[x] = d[row + x] }
            transform1D(&f, count: width, into: &out, v: &v, z: &z)
            for x in 0..<width { d[row + x] = out[x] }
        }
        return d
    }

    /// As `squaredDistances(width:height:isFeature:)`, with the columns pass and then the rows pass
    /// each split into `bands` ranges on parallel child tasks (the outline of a 12 MP sticker: a
    /// 1024-cell grid). Each band writes only its own array; the column bands are read back by row.
    static func squaredDistances(width: Int, height: Int, features: [Bool], bands: Int) async -> [Float] {
        guard width > 0, height > 0 else { return [] }
        let columnBands = rowBands(width, count: bands)
        let columnParts = await concurrentMap(columnBands) { columns in
            // This band's columns transformed, stored row by row: part[y · columns.count + x − lower].
            var part = [Float](repeating: 0, count: height * columns.count)
            var f = [Float](repeating: 0, count: height), out = f
            var v = [Int](repeating: 0, count: height), z = [Float](repeating: 0, count: height + 1)
            for x in columns {
                for y in 0..<height { f[y] = features[y * width + x] ? 0 : .infinity }
                transform1D(&f, count: height, into: &out, v: &v, z: &z)
                let column = x - columns.lowerBound
                for y in 0..<height { part[y * columns.count + column] = out[y] }
            }
            return part
        }
        let rowParts = await concurrentMap(rowBands(height, count: bands)) { rows in
            var part = [Float](repeating: 0, count: rows.count * width)
            var f = [Float](repeating: 0, count: width), out = f
            var v = [Int](repeating: 0, count: width), z = [Float](repeating: 0, count: width + 1)
            for y in rows {
                for (columns, columnPart) in zip(columnBands, columnParts) {
                    let from = y * columns.count
                    for x in columns { f[x] = columnPart[from + x - columns.lowerBound] }
                }
                transform1D(&f, count: width, into: &out, v: &v, z: &z)
                let to = (y - rows.lowerBound) * width
                for x in 0..<width { part[to + x] = out[x] }
            }
            return part
        }
        return joinedBands(rowParts)
    }

    /// One dimension: out[q] = min over p of (q - p)² + f[p]. Infinite samples are skipped.
    private static func transform1D(_ f: inout [Float], count n: Int, into out: inout [Float],
                                     v: inout [Int], z: inout [Float]) {
        var k = -1
        for q in 0..<n where f[q].isFinite {
            let fq = f[q] + Float(q * q)
            var s: Float = 0
            while k >= 0 {
                let p = v[k]
                s = (fq - (f[p] + Float(p * p))) / Float(2 * (q - p))
                if s <= z[k] { k -= 1 } else { break }
            }
            k += 1
            v[k] = q
            z[k] = k == 0 ? -.infinity : s
            z[k + 1] = .infinity
        }
        guard k >= 0 else {
            for q in 0..<n { out[q] = .infinity }
            return
        }
        var j = 0
        for q in 0..<n {
            while z[j + 1] < Float(q) { j += 1 }
            let p = v[j]
            let dq = Float(q - p)
            out[q] = dq * dq + f[p]
        }
    }
}
