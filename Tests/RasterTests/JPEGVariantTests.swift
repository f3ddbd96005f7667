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
