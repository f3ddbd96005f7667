import Raster
@testable import StickerKit
import Testing

/// A plain plate; the frame equal to it but for the followed subject, a red block the network
/// found whole, with a hole through it (the plate itself) and a patch painted close to the plate's
/// colour (2.3/255 away: within the clearing's tolerance, beyond the hole's).
private struct HoleScene {
    static let width = 64, height = 48
    static let hole = (x: 14, y: 12), patch = (x: 28, y: 24), side = 8

    static func make() -> (image: ColorPlanes, plate: ColorPlanes, alpha: [Float], subject: [Bool]) {
        let n = width * height
        let grey = [Float](repeating: 0.5, count: n)
        var red = grey, alpha = [Float](repeating: 0, count: n), subject = [Bool](repeating: false, count: n)
        for y in 8..<40 { for x in 8..<42 { red[y * width + x] = 0.9; alpha[y * width + x] = 1; subject[y * width + x] = true } }
        for y in 0..<side {
            for x in 0..<side {
                red[(hole.y + y) * width + hole.x + x] = 0.5
                red[(patch.y + y) * width + patch.x + x] = 0.5 + 4 / 255
            }
        }
        return (ColorPlanes(width: width, height: height, red: red, green: grey, blue: grey),
                ColorPlanes(width: width, height: height, red: grey, green: grey, blue: grey), alpha, subject)
    }

    static func index(_ x: Int, _ y: Int) -> Int { y * width + x }
}

@Suite("PlateMatte: a hole through the subject shows the plate and stays open")
struct PlateMatteHoleTests {
    private func removed(_ matte: PlateMatte) throws -> [Float] {
        let scene = HoleScene.make()
        let known = [Bool](repeating: true, count: scene.alpha.count)
        return try #require(matte.removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                           known: known, subject: scene.subject)).alpha
    }

    @Test("An enclosed region that is the plate itself is cleared; one only coloured close to it comes back")
    func holeStaysOpenAndPaintedPatchComesBack() throws {
        let out = try removed(PlateMatte())
        let hole = HoleScene.hole, patch = HoleScene.patch
        #expect(out[HoleScene.index(hole.x + 4, hole.y + 4)] == 0, "the hole's middle")
        #expect(out[HoleScene.index(hole.x, hole.y)] == 1, "the hole's rim: its patch takes in the subject")
        #expect(out[HoleScene.index(patch.x + 4, patch.y + 4)] == 1, "the painted patch is the subject's")
        #expect(out[HoleScene.index(20, 30)] == 1, "the subject elsewhere")
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
