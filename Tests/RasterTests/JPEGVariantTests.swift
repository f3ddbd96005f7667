import Foundation
import Testing
@testable import Raster

/// Each fixture is 32×16 with flat quadrants: red, green / blue, white (grey.jpg: their luma).
@Test(arguments: ["progressive.jpg", "cmyk.jpg"])
func progressiveAndCMYKJPEGsDecodeToTheRightColours(file: String) throws {
    let image = try ImageDecoder.decode(try Fixtures.data(file))
    #expect((image.width, image.height) == (32, 16))
    #expect(image[4, 4].isClose(to: Colors.red, tolerance: 12))
    #expect(image[27, 4].isClose(to: Colors.green, tolerance: 12))
    #expect(image[4, 12].isClose(to: Colors.blue, tolerance: 12))
    #expect(image[27, 12].isClose(to: Colors.white, tolerance: 12))
}

@Test func aGreyscaleJPEGDecodesToEqualChannels() throws {
    let image = try ImageDecoder.decode(try Fixtures.data("grey.jpg"))
    for (x, y, level) in [(4, 4, 76), (27, 4, 150), (4, 12, 29), (27, 12, 255)] {
        let p = image[x, y]
        #expect(p.r == p.g && p.g == p.b && p.a == 255)
        #expect(abs(Int(p.r) - level) <= 4)
    }
}

@Test(arguments: [(nil, 1), (4000, 1), (2001, 1), (2000, 2), (1000, 4), (751, 4), (500, 8), (10, 8)] as [(Int?, Int)])
func theDCTScaleIsTheSmallestWhoseLongerSideStillReachesTheTarget(target: Int?, denominator: Int) {
    #expect(JPEGScale.denominator(width: 4000, height: 3000, maxDimension: target) == denominator)
    #expect(JPEGScale.denominator(width: 3000, height: 4000, maxDimension: target) == denominator)
}

@Test func aJPEGDecodesScaledDownInTheDCTDomain() throws {
    let jpeg = try ImageEncoder.jpeg(TestImages.quadrants(width: 160, height: 80), quality: 90)
    let cases: [(Int?, Int, Int)] = [(nil, 160, 80), (100, 160, 80), (80, 80, 40), (40, 40, 20), (20, 20, 10), (1, 20, 10)]
    for (target, width, height) in cases {
        let image = try ImageDecoder.decode(jpeg, maxDimension: target)
        #expect((image.width, image.height) == (width, height), "maxDimension \(String(describing: target))")
        #expect(image[2, 2].isClose(to: Colors.red, tolerance: 16))
    }
}

@Test func aPortraitJPEGIsScaledByItsLongerSideAndThenTurnedUpright() throws {
    let jpeg = TestImages.withOrientation(try ImageEncoder.jpeg(TestImages.quadrants(width: 160, height: 80), quality: 90), 6)
    let image = try ImageDecoder.decode(jpeg, maxDimension: 40)
    #expect((image.width, image.height) == (20, 40))
    #expect(image[17, 2].isClose(to: Colors.red, tolerance: 16))  // stored top-left is now top-right
}

/// A smooth picture (no hard edges), so differently computed block means can be compared closely.
private func smoothPicture(width: Int, height: Int) -> Image {
    var image = Image(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let fx = Double(x) / Double(width), fy = Double(y) / Double(height)
            image[x, y] = RGBA8(r: UInt8(40 + 170 * fx), g: UInt8(200 - 150 * fy), b: UInt8(90 + 80 * fx * fy))
        }
    }
    return image
}

@Test func aProgressiveJPEGAtOneEighthIsReadOnlyAsFarAsItsFirstScans() throws {
    let picture = smoothPicture(width: 256, height: 128)
    let progressive = try ImageEncoder.jpeg(picture, quality: 90, progressive: true)
    #expect(try ImageDecoder.decode(progressive).width == 256)  // full decode still reads everything
    let eighth = try ImageDecoder.decode(progressive, maxDimension: 32)
    #expect((eighth.width, eighth.height) == (32, 16))
    // The block means must agree with a full decode averaged over 8×8 blocks.
    let reference = try ImageDecoder.decode(progressive).downsampled(width: 32, height: 16)
    for (a, b) in zip(eighth.pixels, reference.pixels) { #expect(abs(Int(a) - Int(b)) <= 4) }
    // Cutting away the last third (refinement and high-frequency scans) does not matter at 1/8,
    // but does at full size.
    let dcOnly = progressive.prefix(progressive.count * 2 / 3)
    #expect(throws: ImageCodecError.truncated) { try ImageDecoder.decode(dcOnly) }
    #expect(try ImageDecoder.decode(dcOnly, maxDimension: 32) == eighth)
}

@Test func aProgressiveJPEGCutInsideItsDCScanIsTruncatedEvenAtOneEighth() throws {
    let progressive = try ImageEncoder.jpeg(smoothPicture(width: 256, height: 128), quality: 90, progressive: true)
    let sos = try #require((0..<progressive.count - 1).first { i in
        progressive[progressive.startIndex + i] == 0xFF && progressive[progressive.startIndex + i + 1] == 0xDA
    })
    #expect(throws: ImageCodecError.truncated) { try ImageDecoder.decode(progressive.prefix(sos + 30), maxDimension: 32) }
}
