import Raster
@testable import StickerKit
import Testing

@Suite("PlateMatte: pixels that show the plate leave the alpha")
struct PlateMatteClearingTests {
    /// A plain plate; the frame equal to it but for the followed subject (a red block with one
    /// pixel of its edge coloured as the plate: no hole the interior's give-back would restore),
    /// and a dark line apart from it whose halo the network took in (40 px: no crumb of the block).
    static func scene() -> (image: ColorPlanes, plate: ColorPlanes, alpha: [Float], subject: [Bool]) {
        let w = 64, h = 48, n = w * h
        let grey = [Float](repeating: 0.5, count: n)
        var red = grey, alpha = [Float](repeating: 0, count: n), subject = [Bool](repeating: false, count: n)
        for y in 10..<30 { for x in 10..<30 { red[y * w + x] = 0.9; alpha[y * w + x] = 1; subject[y * w + x] = true } }
        red[20 * w + 10] = 0.5
        for y in 4..<44 {
            red[y * w + 40] = 0.1
            for x in 38...44 { alpha[y * w + x] = 0.6 }
        }
        return (ColorPlanes(width: w, height: h, red: red, green: grey, blue: grey),
                ColorPlanes(width: w, height: h, red: grey, green: grey, blue: grey), alpha, subject)
    }

    @Test("Outside the followed subject a pixel that shows the plate is cleared though its patch takes in a neighbour; inside, only patches clear")
    func pixelsOutsideTheSubjectClear() throws {
        let scene = Self.scene()
        let known = [Bool](repeating: true, count: scene.alpha.count)
        func removed(_ matte: PlateMatte) throws -> [Float] {
            try #require(matte.removing(alpha: scene.alpha, image: scene.image, background: scene.plate,
                                        known: known, subject: scene.subject)).alpha
        }
        let out = try removed(PlateMatte())
        #expect(out[20 * 64 + 41] == 0, "beside the line: the plate itself")
        #expect(out[20 * 64 + 40] == 0.6, "the line differs from the plate: the network's word stays")
        #expect(out[20 * 64 + 43] == 0, "farther out its patch clears it anyway")
        #expect(out[20 * 64 + 10] == 1, "the subject's edge pixel coloured as the plate stays")
        var patchesOnly = PlateMatte()
        patchesOnly.pixelMatch = 0
        let old = try removed(patchesOnly)
        let row = Array(old[(20 * 64 + 36)...(20 * 64 + 46)])
        #expect(old[20 * 64 + 41] == 0.6, "with patches only the line's neighbour stays: \(row)")
    }
}
