import Raster

/// 8-connected regions of a plane above (or, with `inverted`, at or below) a threshold.
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
        labels = [Int32](repeating: -1, count: plane.values.count)
        areas = []; touchesBorder = []
        let w = width, h = height
        var stack: [Int] = []
        plane.values.withUnsafeBufferPointer { v in
            func inside(_ i: Int) -> Bool { inverted ? v[i] <= threshold : v[i] > threshold }
            for seed in 0..<(w * h) where labels[seed] < 0 && inside(seed) {
                let label = Int32(areas.count)
                var area = 0, border = false
                labels[seed] = label
                stack.append(seed)
                while let i = stack.popLast() {
                    area += 1
                    let x = i % w, y = i / w
                    if x == 0 || y == 0 || x == w - 1 || y == h - 1 { border = true }
                    for dy in -1...1 {
                        let ny = y + dy
                        guard ny >= 0 && ny < h else { continue }
                        for dx in -1...1 {
                            let nx = x + dx
                            guard nx >= 0 && nx < w else { continue }
                            let j = ny * w + nx
                            if labels[j] < 0 && inside(j) { labels[j] = label; stack.append(j) }
                        }
                    }
                }
                areas.append(area); touchesBorder.append(border)
            }
        }
    }

    /// The index of the largest region, if any.
    var largest: Int32? {
        guard let best = areas.indices.max(by: { areas[$0] < areas[$1] }) else { return nil }
        return Int32(best)
    }
}
