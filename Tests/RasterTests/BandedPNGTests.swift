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
