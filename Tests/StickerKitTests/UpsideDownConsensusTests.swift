import Testing
import Raster
@testable import StickerKit

/// A red object in front of a large blue "cup" on green, with a white marker pixel in the top-left
/// corner that says which way up the photo is.
private func objectOverContext() -> Image {
    var image = Image(width: 120, height: 80, fill: RGBA8(r: 60, g: 150, b: 70))
    for y in 30..<75 { for x in 50..<115 { image[x, y] = RGBA8(r: 40, g: 60, b: 220) } }
    for y in 8..<40 { for x in 8..<56 { image[x, y] = RGBA8(r: 220, g: 40, b: 40) } }
    image[0, 0] = RGBA8(r: 255, g: 255, b: 255)
    return image
}

/// Stands in for a net that groups the context with the object only in the upright scene: red is
/// salient either way up, blue only while the white marker is at the top.
private struct LayoutSaliency: SaliencyPredicting {
    var side = 40
    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        let upright = image[0, 0].r == 255
        var plane = Plane(width: side, height: side)
        for gy in 0..<side {
            for gx in 0..<side {
                let p = image[(2 * gx + 1) * image.width / (2 * side), (2 * gy + 1) * image.height / (2 * side)]
                if p.r > 200 && p.g < 100 { plane[gx, gy] = 0.98 }
                else if p.b > 200 { plane[gx, gy] = upright ? 0.97 : 0.2 }
                else { plane[gx, gy] = 0.02 }
            }
        }
        return plane
    }
}

@Test func upsideDownRowsAreReversedAndComeBack() {
    var image = Image(width: 3, height: 2, fill: RGBA8(r: 0, g: 0, b: 0))
    image[2, 0] = RGBA8(r: 9, g: 8, b: 7)
    let flipped = UpsideDownConsensus.upsideDown(image)
    #expect(flipped[2, 1] == RGBA8(r: 9, g: 8, b: 7))
    #expect(UpsideDownConsensus.upsideDown(flipped) == image)
    let plane = Plane(width: 2, height: 3, values: [1, 2, 3, 4, 5, 6])
    #expect(plane.upsideDown().values == [5, 6, 3, 4, 1, 2])
}

@Test func whatIsSalientOnlyUprightFadesFromALargeSubject() async throws {
    let image = objectOverContext()
    let first = try await LayoutSaliency().saliency(of: image)
    let agreed = try await UpsideDownConsensus().apply(to: first, of: image, using: LayoutSaliency())
    // Grid cells over the red object stay, those over the blue context drop to the upside-down value.
    #expect(agreed[8, 10] > 0.9)      // red: x ≈ 27, y ≈ 21
    #expect(agreed[33, 27] < 0.3)     // blue: x ≈ 100, y ≈ 55
    #expect(agreed[2, 38] < 0.1)      // background
    for i in agreed.values.indices { #expect(agreed.values[i] <= first.values[i]) }
}

@Test func aSmallSubjectGetsNoSecondLook() async throws {
    let image = objectOverContext()
    let first = try await LayoutSaliency().saliency(of: image)
    var consensus = UpsideDownConsensus()
    consensus.minimumSalientFraction = 0.9
    #expect(!consensus.wantsSecondLook(at: first))
    let same = try await consensus.apply(to: first, of: image, using: LayoutSaliency())
    #expect(same == first)
}

@Test func theCutOutKeepsTheObjectAndDropsTheContextItWasMergedWith() async throws {
    let cut = try await SubjectExtractor(predictor: LayoutSaliency()).cutOut(from: objectOverContext())
    #expect(cut.mask[30, 24] == 255)
    #expect(cut.mask[100, 60] == 0)
}
