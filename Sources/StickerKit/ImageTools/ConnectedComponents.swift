import Raster

/// 8-connected regions of a plane above (or, with `inverted`, at or below) a threshold.
///
/// Two raster passes with union-find (Rosenfeld & Pfaltz): the first gives each pixel a provisional
/// label from its already-visited neighbours (west, north-west, north, north-east) and records which
/// labels meet; the second resolves each to its region. A region's number is the order of its first
/// pixel in raster order, as a flood fill seeded in raster order would number it. It runs up to
/// four times per photo on the critical path (presence, clean-up, holes); at 320×320 (an ellipse
/// with specks) it takes 0.32 ms where a flood fill took 1.0 ms (0.39 vs 1.5 ms for the background).
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
        // A new provisional label needs its west, north-west, north and north-east neighbours
        // outside, so at most one pixel in each 2×2 block starts one.
        var parent = [Int32](repeating: 0, count: (w + 1) / 2 * ((h + 1) / 2) + 1)
        var labelCount = 0
        plane.values.withUnsafeBufferPointer { v in
            labels.withUnsafeMutableBufferPointer { label in
                parent.withUnsafeMutableBufferPointer { p in
                    // parent[l] ≤ l: a merge keeps the smaller root, so a root is the label created
                    // first in its region, i.e. the one holding the region's first pixel.
                    func root(_ start: Int32) -> Int32 {
                        var l = start
                        while p[Int(l)] != l { p[Int(l)] = p[Int(p[Int(l)])]; l = p[Int(l)] }  // path halving
                        return l
                    }
                    func merge(_ a: Int32, _ b: Int32) -> Int32 {
                        let ra = root(a), rb = root(b)
                        if ra < rb { p[Int(rb)] = ra; return ra }
                        if rb < ra { p[Int(ra)] = rb }
                        return rb
                    }
                    for y in 0..<h {
                        let row = y * w
                        for x in 0..<w {
                            let i = row + x
                            guard inverted ? v[i] <= threshold : v[i] > threshold else { continue }
                            var mine: Int32 = x > 0 ? label[i - 1] : -1
                            if y > 0 {
                                // With the west neighbour inside, the north-west and north ones
                                // touch it: already in its region, or merged with it there. The
                                // north-west and north ones touch each other: when both are inside
                                // they were merged on the row above, so north alone will do.
                                let north = label[i - w]
                                if mine < 0 {
                                    mine = north >= 0 ? north : (x > 0 ? label[i - w - 1] : -1)
                                }
                                if x + 1 < w, north < 0 {
                                    let northEast = label[i - w + 1]
                                    if northEast >= 0 { mine = mine < 0 ? northEast : merge(mine, northEast) }
                                }
                            }
                            if mine < 0 {
                                mine = Int32(labelCount)
                                p[labelCount] = mine
                                labelCount += 1
                            }
                            label[i] = mine
                        }
                    }
                    // Region numbers in place of parents, in label order: a root takes the next
                    // number; any other label's parent is smaller, so already holds its region's.
                    var regions: Int32 = 0
                    for l in 0..<labelCount {
                        if p[l] == Int32(l) { p[l] = regions; regions += 1 } else { p[l] = p[Int(p[l])] }
                    }
                    labelCount = Int(regions)
                }
            }
        }
        var areas = [Int](repeating: 0, count: labelCount)
        var touchesBorder = [Bool](repeating: false, count: labelCount)
        labels.withUnsafeMutableBufferPointer { label in
            parent.withUnsafeBufferPointer { region in
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
