import Raster
import Testing
@testable import StickerKit

@Suite struct ConnectedComponentsTests {
    /// The plain definition: flood fills seeded in raster order, 8-connected.
    private func floodFill(_ plane: Plane, threshold: Float, inverted: Bool) -> (labels: [Int32], areas: [Int], border: [Bool]) {
        let w = plane.width, h = plane.height
        var labels = [Int32](repeating: -1, count: w * h), areas: [Int] = [], border: [Bool] = []
        func inside(_ i: Int) -> Bool { inverted ? plane.values[i] <= threshold : plane.values[i] > threshold }
        for seed in 0..<(w * h) where labels[seed] < 0 && inside(seed) {
            let label = Int32(areas.count)
            var stack = [seed], area = 0, touches = false
            labels[seed] = label
            while let i = stack.popLast() {
                area += 1
                let x = i % w, y = i / w
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 { touches = true }
                for ny in max(0, y - 1)...min(h - 1, y + 1) {
                    for nx in max(0, x - 1)...min(w - 1, x + 1) where labels[ny * w + nx] < 0 && inside(ny * w + nx) {
                        labels[ny * w + nx] = label
                        stack.append(ny * w + nx)
                    }
                }
            }
            areas.append(area); border.append(touches)
        }
        return (labels, areas, border)
    }

    /// Blobs of random size and density: many regions that merge late in the raster scan (U and
    /// spiral shapes appear by chance), single pixels, diagonal-only contacts.
    private func randomPlane(width: Int, height: Int, density: Float, seed: UInt64) -> Plane {
        var state = seed
        func next() -> Float {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(state >> 40) / Float(1 << 24)
        }
        return Plane(width: width, height: height, values: (0..<(width * height)).map { _ in next() < density ? next() * 0.5 + 0.5 : next() * 0.5 })
    }

    @Test(arguments: [(1, 1), (1, 9), (9, 1), (17, 13), (64, 40)], [Float(0.3), 0.5, 0.7])
    func labelsAreasAndBorderContactMatchFloodFillsSeededInRasterOrder(size: (Int, Int), density: Float) {
        for seed in 0..<6 {
            let plane = randomPlane(width: size.0, height: size.1, density: density, seed: UInt64(seed))
            for inverted in [false, true] {
                let regions = ConnectedComponents(plane, threshold: 0.5, inverted: inverted)
                let expected = floodFill(plane, threshold: 0.5, inverted: inverted)
                #expect(regions.labels == expected.labels)
                #expect(regions.areas == expected.areas)
                #expect(regions.touchesBorder == expected.border)
            }
        }
    }

    @Test(arguments: [(8, 6), (9, 7), (1, 5), (6, 1)])
    func isolatedPixelsAtEveryOtherRowAndColumnAreAsManyRegions(size: (Int, Int)) {
        // The most provisional labels a plane can start: one per 2×2 block (the label store's bound).
        let (w, h) = size
        let plane = Plane(width: w, height: h, values: (0..<(w * h)).map { i in i % w % 2 == 0 && i / w % 2 == 0 ? 1 : 0 })
        let regions = ConnectedComponents(plane, threshold: 0.5)
        #expect(regions.areas.count == (w + 1) / 2 * ((h + 1) / 2))
        #expect(regions.areas.allSatisfy { $0 == 1 })
        #expect(regions.labels == floodFill(plane, threshold: 0.5, inverted: false).labels)
    }

    @Test func armsThatMeetOnlyAtTheBottomAreOneRegionNumberedByItsFirstPixel() {
        // Rows of a "W" below a separate dot: the three arms are met as separate runs and joined
        // only on the last row; the dot comes first in raster order.
        let rows = ["......#...",
                    "#...#...#.",
                    "#...#...#.",
                    "#...#...#.",
                    "#########."]
        let plane = Plane(width: 10, height: rows.count,
                          values: rows.flatMap { $0.map { $0 == "#" ? Float(1) : 0 } })
        let regions = ConnectedComponents(plane, threshold: 0.5)
        #expect(regions.areas == [1, 18])
        #expect(regions.labels[6] == 0 && regions.labels[10] == 1 && regions.labels[18] == 1)
        #expect(regions.touchesBorder == [true, true])
    }
}
