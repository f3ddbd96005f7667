import Testing
@testable import StickerKit

@Suite struct BoxFilterTests {
    private func plane(_ count: Int, seed: Int) -> [Float] {
        (0..<count).map { Float(($0 * 7919 + seed * 104_729) % 1000) / 1000 }
    }

    @Test func aWindowMeanMatchesTheAverageOfTheCoveredPixels() {
        let (w, h, r) = (7, 5, 2)
        let values = plane(w * h, seed: 1)
        let means = BoxFilter(width: w, height: h, radius: r).mean(values)
        for y in 0..<h {
            for x in 0..<w {
                var sum: Float = 0, count: Float = 0
                for yy in max(0, y - r)...min(h - 1, y + r) {
                    for xx in max(0, x - r)...min(w - 1, x + r) { sum += values[yy * w + xx]; count += 1 }
                }
                #expect(abs(means[y * w + x] - sum / count) < 1e-5)
            }
        }
    }

    @Test func theMeanOfAProductNeedsNoProductPlaneAndGivesTheSameValues() {
        let (w, h) = (37, 23)
        let a = plane(w * h, seed: 2), b = plane(w * h, seed: 3)
        let box = BoxFilter(width: w, height: h, radius: 4)
        #expect(box.mean(a, times: b) == box.mean(zip(a, b).map { $0 * $1 }))
    }

    @Test("The interior four columns at a time gives the one-at-a-time values, bit for bit, any size, radius and weight")
    func blockedInteriorMatchesOneColumnAtATime() {
        for (w, h) in [(1, 1), (5, 3), (9, 6), (37, 23), (64, 17), (130, 9)] {
            for r in [1, 2, 3, 5, 8, 20] {
                let box = BoxFilter(width: w, height: h, radius: r)
                let a = plane(w * h, seed: w + r), b = plane(w * h, seed: h * r)
                for weight in [nil, b] {
                    var blocked = [Float](repeating: 0, count: w * h), single = blocked
                    box.mean(a, times: weight, into: &blocked, blocked: true)
                    box.mean(a, times: weight, into: &single, blocked: false)
                    #expect(blocked == single, "\(w)×\(h), radius \(r), weighted \(weight != nil)")
                }
            }
        }
    }
}
