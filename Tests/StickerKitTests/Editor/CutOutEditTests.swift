import Foundation
import Raster
import Testing
@testable import StickerKit

/// A 400×300 photo whose cut-out is a 200×160 opaque rectangle at (100, 70).
private func scene() -> (photo: Image, cut: SubjectExtractor.CutOut) {
    var photo = Image(width: 400, height: 300, fill: RGBA8(r: 30, g: 200, b: 60))
    var mask = Mask(width: 400, height: 300)
    var crop = Image(width: 200, height: 160)
    for y in 70..<230 {
        for x in 100..<300 {
            photo[x, y] = RGBA8(r: 200, g: 40, b: 40)
            mask.values[y * 400 + x] = 255
            crop[x - 100, y - 70] = RGBA8(r: 190, g: 50, b: 50)  // "cleaned" colours, unlike the photo's
        }
    }
    return (photo, SubjectExtractor.CutOut(mask: mask, image: crop, originX: 100, originY: 70))
}

/// A brush mask painted white in the rectangle [x0, x1) × [y0, y1).
private func brush(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, width: Int = 400, height: Int = 300) -> Mask {
    var mask = Mask(width: width, height: height)
    for y in y0..<y1 { for x in x0..<x1 { mask.values[y * width + x] = 255 } }
    return mask
}

/// The cut-out's alpha at a photo pixel.
private func alpha(_ cut: SubjectExtractor.CutOut, _ x: Int, _ y: Int) -> UInt8 { cut.mask.values[y * cut.mask.width + x] }

@Test("Erased pixels become transparent; the cut-out is unchanged beyond a few pixels of the brush's edge")
func eraseRemovesWherePainted() throws {
    let (photo, cut) = scene()
    let stroke = brush(150, 100, 220, 180)
    let edited = try #require(try CutOutEdits(erase: stroke).apply(to: cut, photo: photo))
    for y in 0..<300 {
        for x in 0..<400 {
            let distance = max(max(150 - x, x - 219), max(100 - y, y - 179))  // Chebyshev distance outside the stroke
            if stroke.values[y * 400 + x] == 255 { #expect(alpha(edited, x, y) == 0) }
            else if distance > 3 { #expect(alpha(edited, x, y) == alpha(cut, x, y)) }
        }
    }
    // A soft edge: just outside the stroke, partly transparent.
    #expect((1..<255).contains(alpha(edited, 149, 140)))
    // The colours kept are the cut-out's own (cleaned) ones, not the photo's.
    #expect(edited.image[110 - edited.originX, 80 - edited.originY] == RGBA8(r: 190, g: 50, b: 50))
}

@Test("Restored pixels become opaque in the photo's own colours, growing the cut-out")
func restoreAddsWherePainted() throws {
    let (photo, cut) = scene()
    let stroke = brush(20, 20, 80, 60)
    let edited = try #require(try CutOutEdits(restore: stroke).apply(to: cut, photo: photo))
    #expect(edited.originX <= 20 && edited.originY <= 20)
    for y in 20..<60 { for x in 20..<80 { #expect(alpha(edited, x, y) == 255) } }
    #expect(edited.image[30 - edited.originX, 30 - edited.originY] == RGBA8(r: 30, g: 200, b: 60))
    // Far from the stroke, nothing changed.
    #expect(alpha(edited, 200, 150) == 255 && alpha(edited, 390, 290) == 0)
    #expect(edited.image[200 - edited.originX, 150 - edited.originY] == RGBA8(r: 190, g: 50, b: 50))
}

@Test("Where both are painted, erase wins; erasing everything leaves nothing")
func eraseWins() throws {
    let (photo, cut) = scene()
    let both = brush(0, 0, 400, 300)
    #expect(try CutOutEdits(erase: both, restore: both).apply(to: cut, photo: photo) == nil)
}

@Test("A brush mask is read from grey or from alpha; another size of the same shape is scaled, another shape refused")
func brushMasks() throws {
    var grey = Image(width: 200, height: 150, fill: RGBA8(r: 0, g: 0, b: 0))
    for y in 0..<50 { for x in 0..<50 { grey[x, y] = RGBA8(r: 255, g: 255, b: 255) } }
    let scaled = try CutOutEdits.brushMask(from: grey, width: 400, height: 300)
    #expect(scaled.width == 400 && scaled.values[10 * 400 + 10] == 255 && scaled.values[200 * 400 + 300] == 0)
    var layer = Image(width: 400, height: 300)  // transparent, painted black where erased
    for y in 0..<10 { for x in 0..<10 { layer[x, y] = RGBA8(r: 0, g: 0, b: 0, a: 255) } }
    let fromAlpha = try CutOutEdits.brushMask(from: layer, width: 400, height: 300)
    #expect(fromAlpha.values[5 * 400 + 5] == 255 && fromAlpha.values[50 * 400 + 50] == 0)
    #expect(throws: CutOutEditError.wrongSize(width: 300, height: 300, expectedWidth: 400, expectedHeight: 300)) {
        try CutOutEdits.brushMask(from: Image(width: 300, height: 300), width: 400, height: 300)
    }
}

@Test("An edited sticker keeps its style and restyles from the edited cut-out, with no network")
func editedStickersRestyle() async throws {
    let (photo, cut) = scene()
    let sticker = Sticker(image: StickerStyle().apply(to: cut.image), mask: cut.mask, cutOut: cut, style: StickerStyle())
    let edited = try #require(try await sticker.edited(CutOutEdits(erase: brush(100, 70, 200, 230)), photo: photo))
    #expect(edited.cutOut?.image.width == 100)
    let puffy = try #require(await edited.restyled(with: StickerStyle(effect: .puffy)))
    #expect(puffy.mask == edited.mask && puffy.image != edited.image)
}

@Test("Erasing needs no photo (the same cut-out with or without it); restoring without one is refused")
func erasingNeedsNoPhoto() throws {
    let (photo, cut) = scene()
    let erase = CutOutEdits(erase: brush(150, 100, 220, 180))
    #expect(!erase.needsPhoto)
    #expect(try erase.apply(to: cut, photo: nil) == erase.apply(to: cut, photo: photo))
    let restore = CutOutEdits(erase: brush(150, 100, 220, 180), restore: brush(20, 20, 60, 60))
    #expect(restore.needsPhoto)
    #expect(throws: CutOutEditError.photoNeeded) { try restore.apply(to: cut, photo: nil) }
}
