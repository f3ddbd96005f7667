import Foundation
import Raster
@testable import StickerKit
import Testing

/// A plate, textured (a green wave) or plain; the frame equal to it but for the followed subject,
/// a red block the network found whole, with a hole through it (the plate itself), a hole the
/// codec smeared 4/255 redder (2.3× the noise floor) and a patch showing the plate 6/255 redder
/// (3.5×: within the clearing's tolerance, beyond the hole's).
private struct HoleScene {
    static let width = 64, height = 48
    static let hole = (x: 14, y: 12), smeared = (x: 14, y: 28), patch = (x: 28, y: 24), side = 8

    static func make(textured: Bool) -> (image: ColorPlanes, plate: ColorPlanes, alpha: [Float], subject: [Bool]) {
        let n = width * height
        let grey = [Float](repeating: 0.5, count: n)
        let green: [Float] = (0..<n).map { i in
            guard textured else { return 0.5 }
            let phase = 0.9 * Double(i % width) + 0.5 * Double(i / width)
            return 0.5 + 0.05 * Float(sin(phase))
        }
        var alpha = [Float](repeating: 0, count: n), subject = [Bool](repeating: false, count: n)
        var image = ColorPlanes(width: width, height: height, red: grey, green: green, blue: grey)
        for y in 8..<40 {
            for x in 8..<42 {
                let i = y * width + x
                image.red[i] = 0.9; image.green[i] = 0.2; alpha[i] = 1; subject[i] = true
            }
        }
        for y in 0..<side {
            for x in 0..<side {
                for (corner, offset) in [(hole, Float(0)), (smeared, Float(4) / 255), (patch, Float(6) / 255)] {
                    let i = (corner.y + y) * width + corner.x + x
                    image.red[i] = 0.5 + offset; image.green[i] = green[i]
                }
            }
        }
        return (image, ColorPlanes(width: width, height: height, red: grey, green: green, blue: grey), alpha, subject)
    }

    static func index(_ x: Int, _ y: Int) -> Int { y * width + x }
}

@Suite("PlateMatte: a hole through the subject that shows a textured plate stays open")
struct PlateMatteHoleTests {
    private func removed(_ matte: PlateMatte = PlateMatte(), textured: Bool = true) throws -> [Float] {
        let scene = HoleScene.make(textured: textured)
        let known = [Bool](repeating: true, count: scene.alpha.count)
        return try #require(matte.removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                           known: known, subject: scene.subject)).alpha
    }

    @Test("An enclosed region that is the textured plate itself is cleared; one only close to it comes back")
    func holeStaysOpenAndNearMatchComesBack() throws {
        let out = try removed()
        let hole = HoleScene.hole, patch = HoleScene.patch
        #expect(out[HoleScene.index(hole.x + 4, hole.y + 4)] == 0, "the hole's middle")
        #expect(out[HoleScene.index(hole.x, hole.y)] == 1, "the hole's rim: its patch takes in the subject")
        #expect(out[HoleScene.index(HoleScene.smeared.x + 4, HoleScene.smeared.y + 4)] == 0, "the smeared hole's middle")
        #expect(out[HoleScene.index(patch.x + 4, patch.y + 4)] == 1, "the near match is the subject's")
        #expect(out[HoleScene.index(36, 14)] == 1, "the subject elsewhere")
    }

    @Test("Over a plain plate (a clipped sky) the same hole comes back: a patch of the subject in its colour looks alike")
    func holeOverPlainPlateComesBack() throws {
        let hole = HoleScene.hole
        #expect(try removed(textured: false)[HoleScene.index(hole.x + 4, hole.y + 4)] == 1)
    }

    @Test("A flat patch of the subject in a lightly textured plate's mean colour comes back",
          arguments: [Float(0.027), 0.029, 0.030, 0.031, 0.032, 0.034, 0.040])
    func flatPatchInThePlatesMeanColourComesBack(amplitude: Float) throws {
        let width = HoleScene.width, height = HoleScene.height, n = width * height
        let grey = [Float](repeating: 0.5, count: n)
        let green: [Float] = (0..<n).map { i in 0.5 + amplitude * Float(sin(0.9 * Double(i % width) + 0.5 * Double(i / width))) }
        var alpha = [Float](repeating: 0, count: n), subject = [Bool](repeating: false, count: n)
        var image = ColorPlanes(width: width, height: height, red: grey, green: green, blue: grey)
        for y in 8..<40 { for x in 8..<42 { let i = y * width + x; image.red[i] = 0.9; image.green[i] = 0.2; alpha[i] = 1; subject[i] = true } }
        for y in 20..<30 { for x in 20..<30 { let i = y * width + x; image.red[i] = 0.5; image.green[i] = 0.5 } }
        let plate = ColorPlanes(width: width, height: height, red: grey, green: green, blue: grey)
        let out = try #require(PlateMatte().removing(alpha: alpha, image: image, background: plate,
                                                     known: [Bool](repeating: true, count: n), subject: subject)).alpha
        #expect(out[25 * width + 25] == 1)
    }

    @Test("Over a strong texture a hole the codec lifted to 4.6× the noise stays open; without the textured rule it comes back")
    func texturedHoleMatchesLessClosely() throws {
        // The hole at (14, 12) lifted 8/255 redder (residual 4.6/255, the noise floor 1/255); the
        // green wave's amplitude 0.2 (its spread ~19/255).
        let width = HoleScene.width, height = HoleScene.height, n = width * height
        let grey = [Float](repeating: 0.5, count: n)
        let green: [Float] = (0..<n).map { i in 0.5 + 0.2 * Float(sin(0.9 * Double(i % width) + 0.5 * Double(i / width))) }
        var alpha = [Float](repeating: 0, count: n), subject = [Bool](repeating: false, count: n)
        var image = ColorPlanes(width: width, height: height, red: grey, green: green, blue: grey)
        for y in 8..<40 { for x in 8..<42 { let i = y * width + x; image.red[i] = 0.9; image.green[i] = 0.2; alpha[i] = 1; subject[i] = true } }
        for y in 12..<20 { for x in 14..<22 { let i = y * width + x; image.red[i] = 0.5 + 8 / 255; image.green[i] = green[i] } }
        let plate = ColorPlanes(width: width, height: height, red: grey, green: green, blue: grey)
        func middle(_ matte: PlateMatte) throws -> Float {
            try #require(matte.removing(alpha: alpha, image: image, background: plate,
                                        known: [Bool](repeating: true, count: n), subject: subject)).alpha[16 * width + 18]
        }
        #expect(try middle(PlateMatte()) == 0)
        var strict = PlateMatte()
        strict.holeTexturedMatch = 0
        #expect(try middle(strict) == 1)
    }

    @Test("A hole grows through the pixels beside it the codec lifted past the clearing's tolerance, not into the subject")
    func holeGrowsThroughLiftedPixels() throws {
        // A hole 14 px wide through the red block over a green wave: its left 8 px the plate
        // itself, its right 6 px lifted 12/255 redder (the codec smearing the subject's colour
        // into it), still following the wave; or, `flat`, a patch of the subject near the plate's
        // colour that does not follow it.
        let width = HoleScene.width, height = HoleScene.height, n = width * height
        let grey = [Float](repeating: 0.5, count: n)
        let green: [Float] = (0..<n).map { i in 0.5 + 0.1 * Float(sin(0.1 * Double(i % width) + 0.35 * Double(i / width))) }
        let plate = ColorPlanes(width: width, height: height, red: grey, green: green, blue: grey)
        func removed(_ matte: PlateMatte = PlateMatte(), flat: Bool = false) throws -> [Float] {
            var alpha = [Float](repeating: 0, count: n), subject = [Bool](repeating: false, count: n)
            var image = ColorPlanes(width: width, height: height, red: grey, green: green, blue: grey)
            for y in 8..<40 { for x in 8..<42 { let i = y * width + x; image.red[i] = 0.9; image.green[i] = 0.2; alpha[i] = 1; subject[i] = true } }
            for y in 14..<26 {
                for x in 12..<26 {
                    let i = y * width + x
                    image.red[i] = x < 20 ? 0.5 : 0.5 + 12 / 255
                    image.green[i] = x >= 20 && flat ? 0.5 : green[i]
                }
            }
            return try #require(matte.removing(alpha: alpha, image: image, background: plate,
                                               known: [Bool](repeating: true, count: n), subject: subject)).alpha
        }
        let grown = try removed()
        #expect(grown[20 * width + 15] == 0, "the hole's matching part")
        #expect(grown[20 * width + 23] == 0, "its lifted part")
        #expect(grown[20 * width + 27] == 1 && grown[11 * width + 20] == 1, "the subject beside it")
        var still = PlateMatte()
        still.holeGrowth = 0
        let kept = try removed(still)
        #expect(kept[20 * width + 15] == 0 && kept[20 * width + 23] == 1, "without the growth the lifted part stays")
        #expect(try removed(flat: true)[20 * width + 23] == 1, "a flat patch beside the hole stays")
    }

    @Test("Without the hole rule, or for a hole smaller than its least area, every enclosed region comes back")
    func everyEnclosedRegionComesBackWithoutTheRule() throws {
        var off = PlateMatte()
        off.holeMatch = 0
        let hole = HoleScene.hole
        #expect(try removed(off)[HoleScene.index(hole.x + 4, hole.y + 4)] == 1)
        var large = PlateMatte()
        large.holeArea = 37  // the hole clears 6 × 6 pixels: its rim's patches take in the subject
        #expect(try removed(large)[HoleScene.index(hole.x + 4, hole.y + 4)] == 1)
    }
}
