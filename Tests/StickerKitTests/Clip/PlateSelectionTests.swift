@testable import StickerKit
import Testing

@Suite("Clips: the k-th smallest of a plate's values")
struct PlateSelectionTests {
    @Test("The k-th smallest is the sorted array's k-th, with many repeats, sorted or reversed input, any k")
    func selectionMatchesSorting() {
        var generator = SystemRandomNumberGenerator()
        for count in [1, 2, 3, 5, 16, 17, 100, 1_001, 4_096] {
            // Residuals come quantised (8-bit frames): few distinct values, many repeats.
            let random = (0..<count).map { _ in Float(Int.random(in: 0..<12, using: &generator)) / 255 }
            for values in [random, random.sorted(), random.sorted().reversed(), [Float](repeating: 0.5, count: count)] {
                let sorted = values.sorted()
                for k in Set([0, count / 2, count - 1, Int.random(in: 0..<count, using: &generator)]) {
                    var scratch = values
                    #expect(BackgroundPlate.select(&scratch, k) == sorted[k], "count \(count), k \(k)")
                    #expect(scratch.sorted() == sorted, "a permutation of the values")
                }
            }
        }
    }

    @Test("A k beyond either end gives the smallest or the largest")
    func outOfRangeKIsClamped() {
        var values: [Float] = [3, 1, 2]
        #expect(BackgroundPlate.select(&values, -4) == 1)
        #expect(BackgroundPlate.select(&values, 9) == 3)
    }
}
