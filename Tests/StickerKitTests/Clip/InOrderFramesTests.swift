@testable import StickerKit
import Testing

@Suite("Clips: frames cut out in any order are handed on in order")
struct InOrderFramesTests {
    @Test("A frame that arrives early waits for those before it")
    func earlyFramesWait() {
        var order = InOrderFrames<String>()
        #expect(order.arrive("b", index: 1, unplaced: false).isEmpty)
        #expect(order.arrive("a", index: 0, unplaced: false) == ["a", "b"])
        #expect(order.settled == 2)
    }

    @Test("An unplaced frame shows the last placed one again")
    func unplacedRepeatsTheLastPlaced() {
        var order = InOrderFrames<String>()
        #expect(order.arrive("a", index: 0, unplaced: false) == ["a"])
        #expect(order.arrive("lost", index: 1, unplaced: true) == ["a"])
        #expect(order.arrive("c", index: 2, unplaced: false) == ["c"])
        #expect(order.finish().isEmpty)
    }

    @Test("Unplaced frames before the first placed one show it, or themselves when none is placed")
    func leadingUnplacedFramesWait() {
        var order = InOrderFrames<String>()
        #expect(order.arrive("lost0", index: 0, unplaced: true).isEmpty)
        #expect(order.arrive("lost1", index: 1, unplaced: true).isEmpty)
        #expect(order.settled == 2, "waiting counts as taken in order")
        #expect(order.arrive("c", index: 2, unplaced: false) == ["c", "c", "c"])

        var nonePlaced = InOrderFrames<String>()
        _ = nonePlaced.arrive("lost0", index: 0, unplaced: true)
        _ = nonePlaced.arrive("lost1", index: 1, unplaced: true)
        #expect(nonePlaced.finish() == ["lost0", "lost1"])
        #expect(nonePlaced.released == 2)
    }
}
