import Raster

/// 8-connected regions of a plane above (or, with `inverted`, at or below) a threshold.
///
/// Two raster passes with union-find (Rosenfeld & Pfaltz): the first gives each pixel a provisional
/// label from its already-visited neighbours (west, north-west, north, north-east) and records which
/// labels meet; the second resolves each to its region. A region's number is the order of its first
/// pixel in raster order, as a flood fill seeded in raster order would number it. It runs up to
/// four times per photo on the critical path (presence, clean-up, holes): a flood fill with a
/// division per visited pixel cost ~1.5 ms each at 320×320.
struct ConnectedComponents: Sendable {
    let width: Int
    let height: Int
    /// Per pixel: the region's index, or -1 outside every region.
    var labels: [Int32]
    /// Pixel count of each region.
    var areas: [Int]
    /// Whether each region touches the frame.
    var touchesBorder: [Bool]

    init(_ plane: Plane, threshold: Float, inverted: Bool = false) {
        width = plane.width; height = plane.height
        let w = width, h = height, n = w * h
        var labels = [Int32](repeating: -1, count: n)
        // parent[l] ≤ l: merging always keeps the smaller label as the root, so a root is the label
        // created first in its region, i.e. the one holding the region's first pixel.
        var parent: [Int32] = []
        parent.reserveCapacity(256)
        func root(_ label: Int32, _ p: UnsafeMutablePointer<Int32>) -> Int32 {
            var l = label
            while p[Int(l)] != l { p[Int(l)] = p[Int(p[Int(l)])]; l = p[Int(l)] }  // path halving
            return l
        }
        plane.values.withUnsafeBufferPointer { v in
            labels.withUnsafeMutableBufferPointer { labelBuffer in
                let label = labelBuffer.baseAddress!
                for y in 0..<h {
                    let row = y * w
                    for x in 0..<w {
                        let i = row + x
                        guard inverted ? v[i] <= threshold : v[i] > threshold else { continue }
                        var mine: Int32 = -1
                        func meet(_ other: Int32) {
                            guard other >= 0 else { return }
                            if mine < 0 { mine = other; return }
                            parent.withUnsafeMutableBufferPointer { p in
                                let a = root(mine, p.baseAddress!), b = root(other, p.baseAddress!)
                                if a < b { p[Int(b)] = a } else if b < a { p[Int(a)] = b }
                            }
                        }
                        if x > 0 { meet(label[i - 1]) }
                        if y > 0 {
                            if x > 0 { meet(label[i - w - 1]) }
                            meet(label[i - w])
                            if x + 1 < w { meet(label[i - w + 1]) }
                        }
                        if mine < 0 {
                            mine = Int32(parent.count)
                            parent.append(mine)
                        }
                        label[i] = mine
                    }
                }
            }
        }
        // Regions numbered by their roots' order, which is their first pixels' raster order.
        var region = [Int32](repeating: -1, count: parent.count)
        var count: Int32 = 0
        parent.withUnsafeMutableBufferPointer { p in
            for l in 0..<p.count {
                let r = root(Int32(l), p.baseAddress!)
                if r == Int32(l) { region[l] = count; count += 1 } else { region[l] = region[Int(r)] }
            }
        }
        var areas = [Int](repeating: 0, count: Int(count))
        var touchesBorder = [Bool](repeating: false, count: Int(count))
        labels.withUnsafeMutableBufferPointer { label in
            for y in 0..<h {
                let edgeRow = y == 0 || y == h - 1
                for x in 0..<w {
                    let i = y * w + x
                    guard label[i] >= 0 else { continue }
                    let r = region[Int(label[i])]
                    label[i] = r
                    areas[Int(r)] += 1
                    if edgeRow || x == 0 || x == w - 1 { touchesBorder[Int(r)] = true }
                }
            }
        }
        self.labels = labels
        self.areas = areas
        self.touchesBorder = touchesBorder
    }

    /// The index of the largest region, if any.
    var largest: Int32? {
        guard let best = areas.indices.max(by: { areas[$0] < areas[$1] }) else { return nil }
        return Int32(best)
    }
}
