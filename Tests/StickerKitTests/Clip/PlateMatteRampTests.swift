import Raster
@testable import StickerKit
import Testing

/// A plain plate and a frame equal to it but for four 8×8 blocks the network calls salient (0.8):
/// outside the followed subject, one block off the plate by half the clearing's tolerance, one by
/// 1.5× it, one by 3× it; and a block of the followed subject off by 1.5× it.
private struct RampScene {
    static let width = 64, height = 48
    static let tolerance: Float = 2.5 / 255   // matchFactor × the noise floor (a plain plate: no slope)
    /// Top-left corners and how far each block is from the plate, in tolerances.
    static let blocks: [(x: Int, y: Int, off: Float, subject: Bool)] = [
        (4, 4, 0.5, false), (24, 4, 1.5, false), (44, 4, 3, false), (24, 30, 1.5, true),
    ]

    static func make() -> (image: ColorPlanes, plate: ColorPlanes, alpha: [Float], subject: [Bool]) {
        let n = width * height
        let grey = [Float](repeating: 0.5, count: n)
        var red = grey, alpha = [Float](repeating: 0, count: n), subject = [Bool](repeating: false, count: n)
        for block in blocks {
            for y in block.y..<(block.y + 8) {
                for x in block.x..<(block.x + 8) {
                    let i = y * width + x
                    // One channel off by d: the residual (RGB distance / √3) is d / √3.
                    red[i] = 0.5 + block.off * tolerance * Float(3).squareRoot()
                    alpha[i] = 0.8
                    subject[i] = block.subject
                }
            }
        }
        return (ColorPlanes(width: width, height: height, red: red, green: grey, blue: grey),
                ColorPlanes(width: width, height: height, red: grey, green: grey, blue: grey), alpha, subject)
    }

    static func centre(_ block: Int) -> Int { (blocks[block].y + 4) * width + blocks[block].x + 4 }
}

@Suite("PlateMatte: the clearing ramps across its tolerance outside the followed subject")
struct PlateMatteRampTests {
    @Test("A background patch just above the tolerance fades in proportion; below it is cleared, far above it or on the subject it stays")
    func clearingRamps() throws {
        let scene = RampScene.make()
        let known = [Bool](repeating: true, count: scene.alpha.count)
        let matte = PlateMatte()
        let removed = try #require(matte.removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                                  known: known, subject: scene.subject))
        let out = PlateMatte.faded(removed.alpha, by: removed.fading)
        #expect(out[RampScene.centre(0)] == 0, "within the tolerance: cleared")
        // 1.5× the tolerance with a ramp to 2×: half way, so half the alpha.
        #expect(abs(out[RampScene.centre(1)] - 0.4) < 0.02, "\(out[RampScene.centre(1)])")
        #expect(out[RampScene.centre(2)] == 0.8, "3× the tolerance: the plate is not there")
        #expect(out[RampScene.centre(3)] == 0.8, "the followed subject is not faded")
    }

    @Test("With the ramp at 1 the clearing is the cut it was: nothing fades")
    func rampOffIsTheCut() throws {
        let scene = RampScene.make()
        let known = [Bool](repeating: true, count: scene.alpha.count)
        var matte = PlateMatte()
        matte.clearingRamp = 1
        let removed = try #require(matte.removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                                  known: known, subject: scene.subject))
        #expect(removed.fading == nil)
        #expect(removed.alpha[RampScene.centre(0)] == 0 && removed.alpha[RampScene.centre(1)] == 0.8)
    }
}
