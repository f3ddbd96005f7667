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
        var out = [Float](repeating: 0, count: width * height)
        mean(plane, into: &out)
        return out
    }

    func mean(_ plane: [Float], into out: inout [Float]) {
        let w = width, h = height, r = radius
        // Horizontal running sums into `out`, then vertical running sums per column block.
        plane.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let row = y * w
                    var sum: Float = 0
                    for x in 0..<min(r, w) { sum += src[row + x] }
                    for x in 0..<w {
                        if x + r < w { sum += src[row + x + r] }
                        if x - r - 1 >= 0 { sum -= src[row + x - r - 1] }
                        dst[row + x] = sum * inverseColumnCounts[x]
                    }
                }
            }
        }
        // Vertical running sums in place: the rows a sum must drop have been overwritten by then,
        // so the last r+1 rows' horizontal sums are kept in a small ring (row y−r−1 shares y's slot).
        var sums = [Float](repeating: 0, count: w)
        let slots = r + 1
        var ring = [Float](repeating: 0, count: slots * w)
        out.withUnsafeMutableBufferPointer { buf in
            ring.withUnsafeMutableBufferPointer { keep in
                for y in 0..<min(r, h) { for x in 0..<w { sums[x] += buf[y * w + x] } }
                for y in 0..<h {
                    if y + r < h { let row = (y + r) * w; for x in 0..<w { sums[x] += buf[row + x] } }
                    let slot = (y % slots) * w, row = y * w
                    if y - r - 1 >= 0 { for x in 0..<w { sums[x] -= keep[slot + x] } }
                    for x in 0..<w { keep[slot + x] = buf[row + x] }
                    let inv = inverseRowCounts[y]
                    for x in 0..<w { buf[row + x] = sums[x] * inv }
                }
            }
        }
    }
}
