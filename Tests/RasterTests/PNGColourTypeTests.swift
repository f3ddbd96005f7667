import Foundation
import Testing
@testable import Raster

/// The sample formula of make_fixtures.py.
private func value(_ x: Int, _ y: Int, _ c: Int) -> UInt8 { UInt8((x * 37 + y * 71 + c * 101) % 256) }

/// A grey sample reduced to `depth` bits and expanded back to 8 the way libpng does (bit replication).
private func grey(_ x: Int, _ y: Int, depth: Int) -> UInt8 {
    let level = Int(value(x, y, 0)) >> (8 - depth)
    return UInt8(level * 255 / ((1 << depth) - 1))
}

private let palette = [Colors.red, Colors.green, Colors.blue, Colors.white]

struct PNGCase: Sendable, CustomTestStringConvertible {
    let file: String
    let expected: @Sendable (Int, Int) -> RGBA8
    var testDescription: String { file }
}

private let cases: [PNGCase] = [
    PNGCase(file: "grey1.png") { x, y in let g = grey(x, y, depth: 1); return RGBA8(r: g, g: g, b: g) },
    PNGCase(file: "grey2.png") { x, y in let g = grey(x, y, depth: 2); return RGBA8(r: g, g: g, b: g) },
    PNGCase(file: "grey4.png") { x, y in let g = grey(x, y, depth: 4); return RGBA8(r: g, g: g, b: g) },
    PNGCase(file: "grey8.png") { x, y in let g = value(x, y, 0); return RGBA8(r: g, g: g, b: g) },
    PNGCase(file: "grey16.png") { x, y in let g = value(x, y, 0); return RGBA8(r: g, g: g, b: g) },
    PNGCase(file: "grey8-trns.png") { x, y in
        let g = value(x, y, 0); return RGBA8(r: g, g: g, b: g, a: g == 37 ? 0 : 255)
    },
    PNGCase(file: "greyalpha8.png") { x, y in let g = value(x, y, 0); return RGBA8(r: g, g: g, b: g, a: value(x, y, 3)) },
    PNGCase(file: "greyalpha16.png") { x, y in let g = value(x, y, 0); return RGBA8(r: g, g: g, b: g, a: value(x, y, 3)) },
    PNGCase(file: "rgb8.png") { x, y in RGBA8(r: value(x, y, 0), g: value(x, y, 1), b: value(x, y, 2)) },
    PNGCase(file: "rgb16.png") { x, y in RGBA8(r: value(x, y, 0), g: value(x, y, 1), b: value(x, y, 2)) },
    PNGCase(file: "rgb8-trns.png") { x, y in
        let c = RGBA8(r: value(x, y, 0), g: value(x, y, 1), b: value(x, y, 2))
        let key = RGBA8(r: value(0, 0, 0), g: value(0, 0, 1), b: value(0, 0, 2))
        return c == key ? RGBA8(r: c.r, g: c.g, b: c.b, a: 0) : c
    },
    PNGCase(file: "rgba8.png") { x, y in RGBA8(r: value(x, y, 0), g: value(x, y, 1), b: value(x, y, 2), a: value(x, y, 3)) },
    PNGCase(file: "rgba16.png") { x, y in RGBA8(r: value(x, y, 0), g: value(x, y, 1), b: value(x, y, 2), a: value(x, y, 3)) },
    PNGCase(file: "rgba8-interlaced.png") { x, y in
        RGBA8(r: value(x, y, 0), g: value(x, y, 1), b: value(x, y, 2), a: value(x, y, 3))
    },
    PNGCase(file: "rgb16-interlaced.png") { x, y in RGBA8(r: value(x, y, 0), g: value(x, y, 1), b: value(x, y, 2)) },
    PNGCase(file: "palette2-trns.png") { x, y in
        var c = palette[(x + y) % 4]; c.a = [0, 128, 255, 255][(x + y) % 4]; return c
    },
    PNGCase(file: "palette8.png") { x, y in palette[(x + y) % 4] },
]

@Test(arguments: cases)
func everyPNGColourTypeAndBitDepthDecodesToExactRGBA(_ testCase: PNGCase) throws {
    let data = try Fixtures.data(testCase.file)
    let image = try ImageDecoder.decode(data)
    #expect((image.width, image.height) == (9, 7))
    var mismatches = 0
    for y in 0..<7 {
        for x in 0..<9 where image[x, y] != testCase.expected(x, y) {
            mismatches += 1
            if mismatches <= 3 { Issue.record("\(testCase.file) (\(x), \(y)): \(image[x, y]) ≠ \(testCase.expected(x, y))") }
        }
    }
    let info = try ImageDecoder.info(data)
    #expect(info == ImageInfo(format: .png, width: 9, height: 7, orientation: .up))
}

@Test(arguments: ["grey8.png", "grey16.png", "greyalpha8.png", "grey4.png"])
func aGreyPNGDecodesStraightToAMask(file: String) throws {
    let mask = try ImageDecoder.decodeMask(try Fixtures.data(file))
    let image = try ImageDecoder.decode(try Fixtures.data(file))
    #expect((mask.width, mask.height) == (9, 7))
    #expect(mask.values == image.pixels.enumerated().compactMap { $0.offset % 4 == 0 ? $0.element : nil })
}

@Test func aColourPNGDecodesToItsLuminanceAsAMask() throws {
    let mask = try ImageDecoder.decodeMask(try Fixtures.data("palette8.png"))
    // Rec. 709 weights: red 54, green 182, blue 18, white 255 (±1 for libpng's fixed point).
    let expected: [Int] = [54, 182, 18, 255]
    for (x, y) in [(0, 0), (1, 0), (2, 0), (3, 0), (4, 6)] {
        #expect(abs(Int(mask[x, y]) - expected[(x + y) % 4]) <= 1)
    }
}
