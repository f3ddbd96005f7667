import Foundation
import Raster
@testable import StickerKit
import Testing

/// A textured plate; the frame equal to it but for the followed subject, a red block whose edge
/// the solve left soft, holding a black bar the network's look dipped on (its alpha a ring, low
/// round a firmer middle, as the compositing solve leaves it), a hole through the block showing
/// the plate, and a second bar over a part of the plate never seen (unknown).
private struct DipScene {
    static let width = 64, height = 48
    static let bar = (x: 14, y: 14, w: 12, h: 4), hole = (x: 30, y: 26, side: 8), unseen = (x: 14, y: 30, w: 10, h: 4)

    static func make() -> (image: ColorPlanes, plate: ColorPlanes, alpha: [Float], known: [Bool]) {
        let n = width * height
        let grey = [Float](repeating: 0.5, count: n)
        let green: [Float] = (0..<n).map { i in 0.5 + 0.05 * Float(sin(0.9 * Double(i % width) + 0.5 * Double(i / width))) }
        var image = ColorPlanes(width: width, height: height, red: grey, green: green, blue: grey)
        var alpha = [Float](repeating: 0, count: n), known = [Bool](repeating: true, count: n)
        for y in 8..<40 {
            for x in 8..<46 {
                let i = y * width + x
                image.red[i] = 0.9; image.green[i] = 0.2
                alpha[i] = x == 8 || y == 8 || x == 45 || y == 39 ? 0.6 : 1
            }
        }
        for (box, isKnown) in [(bar, true), (unseen, false)] {
            for y in box.y..<(box.y + box.h) {
                for x in box.x..<(box.x + box.w) {
                    let i = y * width + x
                    image.red[i] = 0.05; image.green[i] = 0.05; image.blue[i] = 0.05
                    let rim = x == box.x || y == box.y || x == box.x + box.w - 1 || y == box.y + box.h - 1
                    alpha[i] = rim ? 0.2 : 0.8
                    known[i] = isKnown
                }
            }
        }
        for y in hole.y..<(hole.y + hole.side) {
            for x in hole.x..<(hole.x + hole.side) {
                let i = y * width + x
                image.red[i] = 0.5; image.green[i] = green[i]; alpha[i] = 0
            }
        }
        return (image, ColorPlanes(width: width, height: height, red: grey, green: green, blue: grey), alpha, known)
    }

    static func index(_ x: Int, _ y: Int) -> Int { y * width + x }
}

@Suite("PlateMatte: a dark part of the subject that the look dipped on is filled, a hole is not")
struct PlateMatteFillTests {
    private func filled(_ matte: PlateMatte = PlateMatte()) throws -> [Float] {
        let scene = DipScene.make()
        let subject = scene.alpha.map { $0 >= 0.5 }
        let removed = try #require(matte.removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                                  known: scene.known, subject: subject))
        return matte.filled(removed.alpha, showsPlate: removed.showsPlate, known: scene.known, residual: removed.residual,
                            image: scene.image, noise: removed.noise)
    }

    /// A 40 × 30 alpha: a block of 1 over 0, holding an enclosed region of 0 (`region`) with a
    /// 0.7 rim; the frame textured (a green wave), its residual `lift` times the noise (1/255) in
    /// the region and 20 times elsewhere; no pixel showing the plate.
    private func enclosed(region: (x: Int, y: Int, w: Int, h: Int), lift: Float, _ matte: PlateMatte = PlateMatte()) -> [Float] {
        let w = 40, h = 30, noise: Float = 1 / 255
        var alpha = [Float](repeating: 0, count: w * h), residual = [Float](repeating: 20 * noise, count: w * h)
        for y in 4..<26 { for x in 4..<36 { alpha[y * w + x] = 1 } }
        for y in (region.y - 1)...(region.y + region.h) { for x in (region.x - 1)...(region.x + region.w) { alpha[y * w + x] = 0.7 } }
        for y in region.y..<(region.y + region.h) {
            for x in region.x..<(region.x + region.w) { alpha[y * w + x] = 0; residual[y * w + x] = lift * noise }
        }
        let grey = [Float](repeating: 0.5, count: w * h)
        let green: [Float] = (0..<(w * h)).map { i in
            let phase = 0.9 * Double(i % w) + 0.5 * Double(i / w)
            return 0.5 + 0.05 * Float(sin(phase))
        }
        return matte.filled(alpha, showsPlate: [Bool](repeating: false, count: w * h), known: [Bool](repeating: true, count: w * h),
                            residual: residual, image: ColorPlanes(width: w, height: h, red: grey, green: green, blue: grey), noise: noise)
    }

    @Test("An enclosed dip no pixel of which shows the known plate is filled whole, its rim too")
    func enclosedDipIsFilled() throws {
        let out = try filled()
        let bar = DipScene.bar
        #expect(out[DipScene.index(bar.x, bar.y)] == 1, "the bar's corner (its low ring)")
        #expect(out[DipScene.index(bar.x + 5, bar.y + 2)] == 1, "the bar's middle")
        #expect(out[DipScene.index(bar.x + bar.w - 1, bar.y + bar.h - 1)] == 1, "the far corner")
    }

    @Test("A hole showing the plate, a dip over a plate never seen and the subject's outer edge stay as solved")
    func holesUnknownDipsAndTheOuterEdgeStay() throws {
        let out = try filled()
        let hole = DipScene.hole, unseen = DipScene.unseen
        #expect(out[DipScene.index(hole.x + 4, hole.y + 4)] == 0, "the hole's middle")
        #expect(out[DipScene.index(unseen.x, unseen.y)] == 0.2, "the unseen bar's ring")
        #expect(out[DipScene.index(8, 20)] == 0.6, "the block's soft outer edge")
        #expect(out[DipScene.index(45, 20)] == 0.6, "the block's soft outer edge, right")
    }

    @Test("A hole the codec lifted just past the clearing's tolerance, still matching the plate as a hole does, stays open, its rim too")
    func holeMatchingAsAHoleDoesStays() {
        let hole = (x: 10, y: 10, w: 6, h: 6)
        let lifted = enclosed(region: hole, lift: 2.8)
        #expect(lifted[12 * 40 + 12] == 0, "the hole's middle")
        #expect(lifted[9 * 40 + 12] == 0.7, "its rim")
        let dark = enclosed(region: hole, lift: 12)
        #expect(dark[12 * 40 + 12] == 1, "a dark part of the subject, far from the plate, is filled")
        #expect(dark[9 * 40 + 12] == 1, "with its rim")
    }

    @Test("A region as large as 15 % of the subject or more is left as solved")
    func largeRegionIsLeft() {
        // 12 × 9 = 108 px against the 596 above ½ (18 %); 6 × 6 = 36 against 668 (5 %).
        #expect(enclosed(region: (x: 10, y: 8, w: 12, h: 9), lift: 12)[10 * 40 + 12] == 0)
        #expect(enclosed(region: (x: 10, y: 8, w: 6, h: 6), lift: 12)[10 * 40 + 12] == 1)
    }

    @Test("With the fill off the dip keeps its ring")
    func fillCanBeTurnedOff() throws {
        var matte = PlateMatte()
        matte.enclosedFill = 0
        let out = try filled(matte)
        #expect(out[DipScene.index(DipScene.bar.x, DipScene.bar.y)] == 0.2)
    }
}
