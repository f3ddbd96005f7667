import Raster

/// Gives the fully transparent pixels near the subject the colour of its edge.
///
/// Lossy WebP codes colour in 4×4 blocks (and chroma at half resolution): a block holding edge
/// pixels also holds transparent ones, and whatever colour those carry (black, in a renderer's
/// cleared canvas) bleeds into the visible edge as a dark or coloured fringe. Filled with the
/// edge's own colour, the block is smooth and the edge stays clean. Alpha is left untouched
/// (straight alpha, as libwebp expects); only RGB under alpha 0 changes, `rings` pixels deep
/// (16 covers a whole macroblock holding an edge pixel), frontier by frontier.
enum AlphaBleed {
    static func apply(to image: inout Image, rings: Int = 16) {
        let width = image.width, height = image.height
        guard width > 0, height > 0 else { return }
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            // 0: transparent and unfilled; 1: has colour (visible, or filled by an earlier ring); 2: queued.
            var state = [UInt8](repeating: 0, count: width * height)
            func forEachNeighbour(of index: Int, _ body: (Int) -> Void) {
                let x = index % width, y = index / width
                for dy in -1...1 {
                    let ny = y + dy
                    guard ny >= 0, ny < height else { continue }
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let nx = x + dx
                        if nx >= 0, nx < width { body(ny * width + nx) }
                    }
                }
            }
            func hasFilledNeighbour(_ index: Int) -> Bool {
                var found = false
                forEachNeighbour(of: index) { if state[$0] == 1 { found = true } }
                return found
            }
            /// Visible neighbours weigh by their alpha (a faint edge pixel's colour is the least
            /// certain), filled ones by 255.
            func average(around index: Int) -> (UInt8, UInt8, UInt8) {
                var r = 0, g = 0, b = 0, total = 0
                forEachNeighbour(of: index) { neighbour in
                    guard state[neighbour] == 1 else { return }
                    let alpha = Int(pixels[neighbour * 4 + 3])
                    let weight = alpha > 0 ? alpha : 255
                    r += Int(pixels[neighbour * 4]) * weight
                    g += Int(pixels[neighbour * 4 + 1]) * weight
                    b += Int(pixels[neighbour * 4 + 2]) * weight
                    total += weight
                }
                guard total > 0 else { return (0, 0, 0) }
                return (UInt8((r + total / 2) / total), UInt8((g + total / 2) / total), UInt8((b + total / 2) / total))
            }
            var frontier: [Int] = []
            for index in 0..<(width * height) where pixels[index * 4 + 3] > 0 { state[index] = 1 }
            for index in 0..<(width * height) where state[index] == 0 && hasFilledNeighbour(index) {
                state[index] = 2
                frontier.append(index)
            }
            var colours: [(UInt8, UInt8, UInt8)] = []
            var ring = 0
            while !frontier.isEmpty && ring < rings {
                ring += 1
                // Colours first, then marks: each ring reads only the rings before it.
                colours.removeAll(keepingCapacity: true)
                for index in frontier { colours.append(average(around: index)) }
                for (index, colour) in zip(frontier, colours) {
                    pixels[index * 4] = colour.0
                    pixels[index * 4 + 1] = colour.1
                    pixels[index * 4 + 2] = colour.2
                    state[index] = 1
                }
                var next: [Int] = []
                for index in frontier {
                    forEachNeighbour(of: index) { neighbour in
                        if state[neighbour] == 0 { state[neighbour] = 2; next.append(neighbour) }
                    }
                }
                frontier = next
            }

        }
    }
}
