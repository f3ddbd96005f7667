import Raster
@testable import StickerKit
import Testing

/// A plain plate and a frame equal to it but for a 24×24 block the network found (the followed
/// subject), a dark handle 4 px wide hanging from it that the network missed, and a dark block
/// apart from both.
private struct HandleScene {
    static let width = 96, height = 64
    static let block = (x: 30, y: 8, side: 24)

    /// `clearedBlock`: the network also found a block that shows the plate (so the clearing runs, and its crumbs).
    static func make(handleLength: Int, clearedBlock: Bool = false) -> (image: ColorPlanes, plate: ColorPlanes, alpha: [Float], subject: [Bool]) {
        let n = width * height
        let grey = [Float](repeating: 0.5, count: n)
        var red = grey, alpha = [Float](repeating: 0, count: n), subject = [Bool](repeating: false, count: n)
        func paint(x: Range<Int>, y: Range<Int>, value: Float, found: Bool) {
            for py in y { for px in x { red[py * width + px] = value; if found { alpha[py * width + px] = 1; subject[py * width + px] = true } } }
        }
        paint(x: block.x..<(block.x + block.side), y: block.y..<(block.y + block.side), value: 0.9, found: true)
        paint(x: 40..<44, y: (block.y + block.side)..<min(height, block.y + block.side + handleLength), value: 0.1, found: false)
        paint(x: 80..<88, y: 40..<48, value: 0.1, found: false)
        if clearedBlock { for y in 44..<52 { for x in 4..<12 { alpha[y * width + x] = 0.8 } } }
        return (ColorPlanes(width: width, height: height, red: red, green: grey, blue: grey),
                ColorPlanes(width: width, height: height, red: grey, green: grey, blue: grey), alpha, subject)
    }

    static func index(_ x: Int, _ y: Int) -> Int { y * width + x }
}

@Suite("PlateMatte: a part of the subject the network missed, far from the plate, is given back")
struct PlateMatteRestoreTests {
    @Test("A handle joined to the subject comes back beyond the edge's own pixels; a block apart from it does not")
    func missedHandleComesBack() throws {
        let scene = HandleScene.make(handleLength: 16)
        let known = [Bool](repeating: true, count: scene.alpha.count)
        let out = try #require(PlateMatte().removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                                     known: known, subject: scene.subject)).alpha
        let bottom = HandleScene.block.y + HandleScene.block.side
        #expect(out[HandleScene.index(41, bottom + 8)] == 1, "the handle, away from the subject's edge")
        #expect(out[HandleScene.index(42, bottom + 15)] == 1, "its far end")
        #expect(out[HandleScene.index(41, bottom)] == 0, "within the edge's reach: left to the compositing solve")
        #expect(out[HandleScene.index(84, 44)] == 0, "a block apart from the subject stays out")
        #expect(out[HandleScene.index(50, 50)] == 0, "the plate stays background")
    }

    @Test("A short handle comes back when the clearing ran too: it is no crumb of the clearing")
    func shortHandleSurvivesTheCrumbs() throws {
        // 4×8 px, 4×6 beyond the edge's reach: 4 % of the block, under the crumbs' 5 %.
        let scene = HandleScene.make(handleLength: 8, clearedBlock: true)
        let known = [Bool](repeating: true, count: scene.alpha.count)
        let out = try #require(PlateMatte().removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                                     known: known, subject: scene.subject)).alpha
        #expect(out[HandleScene.index(8, 48)] == 0, "the block that shows the plate is cleared")
        #expect(out[HandleScene.index(41, HandleScene.block.y + HandleScene.block.side + 5)] == 1)
    }

    /// The plate grey with a band of 2 px stripes (red and green, 0.4 apart per pixel) across the
    /// frame, `band` px below the block; the frame is the plate with the block (found) painted in.
    private static func stripedScene(band: Range<Int> = 4..<12) -> (image: ColorPlanes, plate: ColorPlanes, alpha: [Float], subject: [Bool]) {
        let w = HandleScene.width, h = HandleScene.height, n = w * h
        let block = HandleScene.block, bottom = block.y + block.side
        var plate = ColorPlanes(width: w, height: h, red: [Float](repeating: 0.5, count: n),
                                green: [Float](repeating: 0.5, count: n), blue: [Float](repeating: 0.5, count: n))
        for y in (bottom + band.lowerBound)..<(bottom + band.upperBound) {
            let redStripe = (y / 2) % 2 == 0
            for x in 0..<w {
                plate.red[y * w + x] = redStripe ? 1 : 0.2
                plate.green[y * w + x] = redStripe ? 0.2 : 1
                plate.blue[y * w + x] = 0.3
            }
        }
        var image = plate, alpha = [Float](repeating: 0, count: n), subject = [Bool](repeating: false, count: n)
        for y in block.y..<bottom {
            for x in block.x..<(block.x + block.side) {
                image.red[y * w + x] = 0.9; alpha[y * w + x] = 1; subject[y * w + x] = true
            }
        }
        return (image, plate, alpha, subject)
    }

    @Test("A handle crossing a striped background comes back past the stripes: a sharp plate edge behind it is no misplacement")
    func handleCrossesStripes() throws {
        // The handle (0.6, 0.6, 0.3) differs from either stripe by 0.33 and hides their texture.
        var scene = Self.stripedScene()
        let w = HandleScene.width, bottom = HandleScene.block.y + HandleScene.block.side
        for y in bottom..<(bottom + 16) {
            for x in 40..<44 { scene.image.red[y * w + x] = 0.6; scene.image.green[y * w + x] = 0.6; scene.image.blue[y * w + x] = 0.3 }
        }
        let known = [Bool](repeating: true, count: scene.alpha.count)
        let out = try #require(PlateMatte().removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                                     known: known, subject: scene.subject)).alpha
        #expect(out[HandleScene.index(41, bottom + 8)] == 1, "on the stripes")
        #expect(out[HandleScene.index(41, bottom + 14)] == 1, "past them")
        // Tolerating the clearing's whole misplacement, the stripes cut the handle off.
        var whole = PlateMatte()
        whole.restoringMisplacement = whole.misplacement
        let cut = try #require(whole.removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                              known: known, subject: scene.subject)).alpha
        #expect(cut[HandleScene.index(41, bottom + 14)] == 0)
    }

    @Test("A shadow the subject casts on striped ground is not given back: the stripes show through it, darkened")
    func shadowOnStripesStaysBackground() throws {
        var scene = Self.stripedScene(band: 4..<24)
        let w = HandleScene.width, bottom = HandleScene.block.y + HandleScene.block.side
        for y in bottom..<(bottom + 16) {
            for x in 46..<52 {
                let i = y * w + x
                scene.image.red[i] *= 0.5; scene.image.green[i] *= 0.5; scene.image.blue[i] *= 0.5
            }
        }
        let known = [Bool](repeating: true, count: scene.alpha.count)
        let out = try #require(PlateMatte().removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                                     known: known, subject: scene.subject)).alpha
        // Over the plain ground next to the subject it comes back, as any part the plate does not
        // show: there a shadow is told by its colour alone, which a part of the subject may share.
        // Its last row's patch takes in the unshaded ground below it: left out.
        for y in (bottom + 5)..<(bottom + 15) { #expect(out[HandleScene.index(48, y)] == 0, "row \(y)") }
    }

    @Test("A frame whose subject looks smaller than the clip's largest gives back by the largest, up to a quarter more than its own")
    func restoredShareCountsTheClipsLargestSubject() throws {
        let known = [Bool](repeating: true, count: HandleScene.width * HandleScene.height)
        let bottom = HandleScene.block.y + HandleScene.block.side
        // 26 rows: 96 px beyond the edge's reach, over 15 % of the block's 576 (86 px) and within
        // 15 % of 1.25 × 576 (108 px).
        let long = HandleScene.make(handleLength: 26)
        let alone = try #require(PlateMatte().removing(alpha: long.alpha, image: long.image, background: long.plate,
                                                       known: known, subject: long.subject)).alpha
        #expect(alone[HandleScene.index(41, bottom + 8)] == 0)
        let byClip = try #require(PlateMatte().removing(alpha: long.alpha, image: long.image, background: long.plate,
                                                        known: known, subject: long.subject, subjectArea: 1_000)).alpha
        #expect(byClip[HandleScene.index(41, bottom + 8)] == 1)
        // At most a quarter more than the frame's own subject counts: one huge look lifts no cap.
        let longer = HandleScene.make(handleLength: 32)   // 120 px beyond the edge's reach
        let capped = try #require(PlateMatte().removing(alpha: longer.alpha, image: longer.image, background: longer.plate,
                                                        known: known, subject: longer.subject, subjectArea: 10_000)).alpha
        #expect(capped[HandleScene.index(41, bottom + 8)] == 0)
    }

    @Test("More than the restored share of the subject's area is no missed part: nothing is given back; 0 turns it off")
    func tooLargeOrOffGivesNothing() throws {
        let known = [Bool](repeating: true, count: HandleScene.width * HandleScene.height)
        let bottom = HandleScene.block.y + HandleScene.block.side
        let long = HandleScene.make(handleLength: 32)   // 128 px: more than 15 % of the block's 576
        let out = try #require(PlateMatte().removing(alpha: long.alpha, image: long.image, background: long.plate,
                                                     known: known, subject: long.subject)).alpha
        #expect(out[HandleScene.index(41, bottom + 8)] == 0)
        var off = PlateMatte()
        off.restoresBeyond = 0
        let short = HandleScene.make(handleLength: 16)
        let kept = try #require(off.removing(alpha: short.alpha, image: short.image, background: short.plate,
                                             known: known, subject: short.subject)).alpha
        #expect(kept[HandleScene.index(41, bottom + 8)] == 0)
    }
}
