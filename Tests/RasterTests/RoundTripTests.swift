import Foundation
import Testing
@testable import Raster

@Test func anRGBAImageSurvivesAPNGRoundTripExactly() throws {
    let image = TestImages.gradient()
    let png = try ImageEncoder.png(image)
    #expect(ImageFormat.sniff(png) == .png)
    #expect(try ImageDecoder.decode(png) == image)
}

@Test func aMaskSurvivesAGreyPNGRoundTripExactly() throws {
    let mask = Mask(width: 19, height: 7, values: (0..<133).map { UInt8($0 * 37 % 256) })
    let png = try ImageEncoder.png(mask)
    #expect(try ImageDecoder.decodeMask(png) == mask)
    // Decoded as colour, grey becomes equal R, G and B with opaque alpha.
    let image = try ImageDecoder.decode(png)
    #expect(image[3, 2] == RGBA8(r: mask[3, 2], g: mask[3, 2], b: mask[3, 2]))
}

@Test func aJPEGRoundTripKeepsSizeAndColoursClose() throws {
    let image = TestImages.quadrants(width: 64, height: 48)
    let jpeg = try ImageEncoder.jpeg(image, quality: 92)
    #expect(ImageFormat.sniff(jpeg) == .jpeg)
    let decoded = try ImageDecoder.decode(jpeg)
    #expect((decoded.width, decoded.height) == (64, 48))
    #expect(decoded[5, 5].isClose(to: Colors.red, tolerance: 8))
    #expect(decoded[60, 44].isClose(to: Colors.white, tolerance: 8))
}

@Test func higherJPEGQualityGivesMoreBytes() throws {
    let image = TestImages.gradient(width: 64, height: 64)
    #expect(try ImageEncoder.jpeg(image, quality: 30).count < ImageEncoder.jpeg(image, quality: 95).count)
}

@Test func anEmptyImageCannotBeEncoded() {
    #expect(throws: ImageCodecError.self) { try ImageEncoder.png(Image(width: 0, height: 0)) }
    #expect(throws: ImageCodecError.self) { try ImageEncoder.jpeg(Image(width: 0, height: 0), quality: 80) }
}
