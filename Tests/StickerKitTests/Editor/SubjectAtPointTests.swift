import Foundation
import Raster
import Testing
@testable import StickerKit

/// A large disc and a tiny one far from it: the first look keeps the tiny one as a speck, not a subject.
private enum LargeAndTiny {
    static let width = 960, height = 640
    static let large = (x: 300.0, y: 320.0, r: 150.0), tiny = (x: 800.0, y: 140.0, r: 12.0)

    static func scene() -> (image: Image, large: [Double], tiny: [Double]) {
        let big = SubjectScenes.disc(width: width, height: height, centerX: large.x, centerY: large.y, radius: large.r)
        let small = SubjectScenes.disc(width: width, height: height, centerX: tiny.x, centerY: tiny.y, radius: tiny.r,
                                       color: RGBA8(r: 40, g: 60, b: 220))
        var image = big.image
        for i in 0..<(width * height) where small.truth[i] > 0 {
            for c in 0..<4 { image.pixels[i * 4 + c] = small.image.pixels[i * 4 + c] }
        }
        return (image, big.truth, small.truth)
    }

    static var extractor: SubjectExtractor { SubjectExtractor(predictor: ContrastSaliency(gridSide: 80)) }
}

@Test("A point on something the first look missed gets a closer look, which cuts that thing out")
func closerLookAtAPoint() async throws {
    let scene = LargeAndTiny.scene()
    let extractor = LargeAndTiny.extractor
    let first = try await extractor.extractSubject(from: scene.image)
    #expect(throws: SubjectChoiceError.self) {
        try first.subjects?.subject(atX: Int(LargeAndTiny.tiny.x), y: Int(LargeAndTiny.tiny.y))
    }
    let found = try await extractor.subject(at: .point(x: Int(LargeAndTiny.tiny.x), y: Int(LargeAndTiny.tiny.y)),
                                            in: scene.image, firstLook: first)
    #expect(intersectionOverUnion(found.mask, scene.tiny) >= 0.85)
    #expect(found.cutOut.map { $0.originX > 700 } == true)
    // A box around it does the same.
    let boxed = try await extractor.subject(at: .box(x0: 770, y0: 110, x1: 830, y1: 170), in: scene.image, firstLook: first)
    #expect(intersectionOverUnion(boxed.mask, scene.tiny) >= 0.85)
}

@Test("A point on a subject the first look found, small in the photo, looks at that subject alone")
func smallFoundSubjectGetsACloserLook() async throws {
    let scene = LargeAndTiny.scene()
    let extractor = LargeAndTiny.extractor
    let first = try await extractor.extractSubject(from: scene.image)
    let x = Int(LargeAndTiny.large.x), y = Int(LargeAndTiny.large.y)
    let rank = try #require(try first.subjects?.subject(atX: x, y: y))
    let recut = try #require(try await first.recut(choosing: .ranks([rank]), style: extractor.style))
    let found = try await extractor.subject(at: .point(x: x, y: y), in: scene.image, firstLook: first)
    // The closer look's cut-out is placed back in the photo without the first look's subjects.
    #expect(found.cutOut?.subjects == nil)
    #expect(intersectionOverUnion(found.mask, scene.large) >= 0.85)
    #expect(intersectionOverUnion(found.mask, scene.large) >= intersectionOverUnion(recut.mask, scene.large) - 0.01)
}

@Test("A point on a subject that fills most of the photo gives exactly the re-cut it always gave")
func largeFoundSubjectIsReCut() async throws {
    let scene = SubjectScenes.disc(width: 640, height: 480, centerX: 320, centerY: 240, radius: 200)
    let extractor = LargeAndTiny.extractor
    let first = try await extractor.extractSubject(from: scene.image)
    let rank = try #require(try first.subjects?.subject(atX: 320, y: 240))
    let recut = try #require(try await first.recut(choosing: .ranks([rank]), style: extractor.style))
    let found = try await extractor.subject(at: .point(x: 320, y: 240), in: scene.image, firstLook: first)
    #expect(found == recut)
}

@Test("A point outside the photo is refused; a point on plain background finds nothing")
func pointRefusals() async throws {
    let scene = LargeAndTiny.scene()
    let extractor = LargeAndTiny.extractor
    let first = try await extractor.extractSubject(from: scene.image)
    await #expect(throws: SubjectAtTargetError.outsidePhoto(.pointOutsidePhoto(x: 5000, y: 3, width: 960, height: 640))) {
        try await extractor.subject(at: .point(x: 5000, y: 3), in: scene.image, firstLook: first)
    }
    await #expect(throws: SubjectAtTargetError.nothingThere) {
        try await extractor.subject(at: .point(x: 700, y: 560), in: scene.image, firstLook: first)
    }
}
