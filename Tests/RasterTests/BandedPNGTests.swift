import Foundation
import Testing
@testable import Raster

/// The banded encoder (bands deflated apart, then joined) must write an ordinary PNG.

@Test(arguments: [1, 2, 3, 7])
func anImageEncodedInBandsDecodesToTheSamePixels(bands: Int) async throws {
    let image = TestImages.gradient(width: 37, height: 29)
    let png = try await ImageEncoder.bandedPNG(image.pixels, width: image.width, height: image.height, channels: 4,
                                               maximumBands: bands, minimumBandBytes: 1)
    #expect(ImageFormat.sniff(png) == .png)
    #expect(try ImageDecoder.decode(png) == image)
}

@Test func aMaskEncodedInBandsDecodesToTheSameValues() async throws {
    let mask = Mask(width: 41, height: 13, values: (0..<533).map { UInt8($0 * 37 % 256) })
    let png = try await ImageEncoder.bandedPNG(mask.values, width: mask.width, height: mask.height, channels: 1,
                                               maximumBands: 4, minimumBandBytes: 1)
    #expect(try ImageDecoder.decodeMask(png) == mask)
}

@Test func moreBandsThanRowsStillMakeOneValidPNG() async throws {
    let image = TestImages.quadrants(width: 8, height: 2)
    let png = try await ImageEncoder.bandedPNG(image.pixels, width: 8, height: 2, channels: 4,
                                               maximumBands: 16, minimumBandBytes: 1)
    #expect(try ImageDecoder.decode(png) == image)
}

@Test func bandedAndOneCorePNGsAreTheSameSizeWithinAFewBytes() async throws {
    let image = TestImages.gradient(width: 300, height: 200)
    let oneCore = try ImageEncoder.png(image)
    let banded = try await ImageEncoder.bandedPNG(image.pixels, width: 300, height: 200, channels: 4,
                                                  maximumBands: 4, minimumBandBytes: 1)
    #expect(abs(banded.count - oneCore.count) < 64 * 4)
}

@Test func anEmptyImageCannotBeEncodedInBands() async {
    await #expect(throws: ImageCodecError.self) { try await ImageEncoder.concurrentPNG(Image(width: 0, height: 0)) }
}

/// The deflate encoder behind every PNG (runs one byte or one pixel back, a Huffman code per block):
/// content that exercises each of its paths must come back exactly.
@Test(arguments: ["noise", "flat", "runs", "sparse", "skewed", "twoValues", "shortPixelRepeats"])
func contentOfEveryKindComesBackExactlyInOneBandOrSeveral(kind: String) async throws {
    var generator = SeededGenerator(seed: 7)
    let width = 173, height = 211  // 146 KB of RGBA rows: more than one 128 KiB deflate block
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    var repeating = false
    for i in pixels.indices {
        switch kind {
        case "noise": pixels[i] = UInt8.random(in: 0...255, using: &generator)
        case "flat": pixels[i] = i % 4 == 3 ? 255 : 90
        case "runs": pixels[i] = (i / 613) % 3 == 0 ? UInt8(i / 613 % 256) : 0            // long runs of equal bytes
        case "sparse": pixels[i] = UInt8.random(in: 0...99, using: &generator) < 3 ? UInt8.random(in: 0...255, using: &generator) : 0
        // Runs of two and three bytes and of one or two pixels everywhere, so matches start at
        // every offset of the encoder's 30-byte literal scan, and near-matches abound.
        case "twoValues": pixels[i] = UInt8.random(in: 0...1, using: &generator) * 200
        case "shortPixelRepeats":  // each pixel a new random one or, two times in three, the one before
            if i % 4 == 0 { repeating = i >= 4 && UInt8.random(in: 0...2, using: &generator) > 0 }
            pixels[i] = repeating ? pixels[i - 4] : UInt8.random(in: 0...255, using: &generator)
        default: pixels[i] = UInt8(min(255, Int(-log2(Double.random(in: 1e-9...1, using: &generator)) * 9)))  // skewed: long codes
        }
    }
    let image = Image(width: width, height: height, pixels: pixels)
    #expect(try ImageDecoder.decode(ImageEncoder.png(image)) == image)
    let banded = try await ImageEncoder.bandedPNG(pixels, width: width, height: height, channels: 4,
                                                  maximumBands: 3, minimumBandBytes: 1)
    #expect(try ImageDecoder.decode(banded) == image)
    let mask = Mask(width: width, height: height * 4, values: pixels)
    #expect(try ImageDecoder.decodeMask(ImageEncoder.png(mask)) == mask)
}

@Test func aRowLongerThanADeflateBlockComesBackExactly() throws {
    // 40 000 RGBA pixels: one filtered row (160 KB) spans two blocks.
    let image = TestImages.gradient(width: 40_000, height: 3)
    #expect(try ImageDecoder.decode(ImageEncoder.png(image)) == image)
}

@Test func noiseTakesLittleMoreRoomThanItsBytes() throws {
    // Incompressible blocks are stored, not inflated by a Huffman code.
    var generator = SeededGenerator(seed: 11)
    let pixels = (0..<(256 * 256 * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let png = try ImageEncoder.png(Image(width: 256, height: 256, pixels: pixels))
    #expect(png.count < pixels.count + pixels.count / 100 + 256)
}

/// The same pseudo-random bytes on every run: the 64-bit LCG of MalformedInputTests' noise, of
/// which only the high halves are used (its low bits repeat with short periods).
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        func highHalf() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 32
        }
        return highHalf() << 32 | highHalf()
    }
}
