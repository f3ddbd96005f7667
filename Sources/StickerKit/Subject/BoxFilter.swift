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
        var sums = [Float](repeating: 0, count: w)
        var column = [Float](repeating: 0, count: h * w)
        out.withUnsafeMutableBufferPointer { buf in
            column.withUnsafeMutableBufferPointer { tmp in
                for x in 0..<w { sums[x] = 0 }
                for y in 0..<min(r, h) { for x in 0..<w { sums[x] += buf[y * w + x] } }
                for y in 0..<h {
                    if y + r < h { let row = (y + r) * w; for x in 0..<w { sums[x] += buf[row + x] } }
                    if y - r - 1 >= 0 { let row = (y - r - 1) * w; for x in 0..<w { sums[x] -= buf[row + x] } }
                    let inv = inverseRowCounts[y], row = y * w
                    for x in 0..<w { tmp[row + x] = sums[x] * inv }
                }
            }
        }
        out = column
    }
}
