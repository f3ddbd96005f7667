import Testing
import Raster
@testable import StickerKit

private func plane(_ side: Int, _ value: (Int, Int) -> Float) -> Plane {
    var p = Plane(width: side, height: side)
    for y in 0..<side { for x in 0..<side { p[x, y] = value(x, y) } }
    return p
}

@Test func aCompactConfidentRegionIsAClearSubject() {
    let saliency = plane(64) { x, y in (x - 32) * (x - 32) + (y - 30) * (y - 30) < 200 ? 0.99 : 0.01 }
    #expect(SubjectPresence().hasClearSubject(saliency))
}

@Test func lowSaliencyEverywhereIsNoSubject() {
    #expect(!SubjectPresence().hasClearSubject(plane(64) { _, _ in 0.02 }))
}

@Test func aScatterOfUnsureSpecksIsNoSubject() {
    // Thin, half-confident streaks, like grass blades: salient-looking but nothing a sticker could be.
    let saliency = plane(64) { x, y in x % 9 == 0 && y > 20 ? 0.65 : 0.05 }
    #expect(!SubjectPresence().hasClearSubject(saliency))
}

@Test func saliencyFillingTheWholeFrameIsNoSubject() {
    #expect(!SubjectPresence().hasClearSubject(plane(64) { _, _ in 0.98 }))
}

@Test func cleanupDropsSpecksAndFillsPinholes() {
    var saliency = plane(80) { x, y in (x - 40) * (x - 40) + (y - 40) * (y - 40) < 600 ? 1 : 0 }
    saliency[40, 40] = 0                      // a pinhole
    saliency[5, 5] = 1; saliency[6, 5] = 1    // a speck
    let tidy = SaliencyCleanup().apply(to: saliency)
    #expect(tidy[40, 40] == 1)
    #expect(tidy[5, 5] == 0 && tidy[6, 5] == 0)
    #expect(tidy[40, 30] == 1)
}

@Test func cleanupKeepsASecondLargeRegion() {
    let saliency = plane(80) { x, y in
        (x - 20) * (x - 20) + (y - 40) * (y - 40) < 150 || (x - 60) * (x - 60) + (y - 40) * (y - 40) < 120 ? 1 : 0
    }
    let tidy = SaliencyCleanup().apply(to: saliency)
    #expect(tidy[20, 40] == 1 && tidy[60, 40] == 1)
}
