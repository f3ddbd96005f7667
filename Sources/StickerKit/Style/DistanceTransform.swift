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
