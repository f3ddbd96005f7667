import Foundation
import Testing
@testable import Raster

private let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Samples").standardizedFileURL

/// Display sizes per LICENSES.md: the EXIF-tagged portraits are stored sideways.
private let displaySizes: [String: (Int, Int)] = [
    "nuthatch-20mp.jpg": (6028, 3391), "nuthatch-portrait-exif8.jpg": (1600, 2400),
    "astronaut-portrait-exif6.jpg": (384, 512), "chelsea-cat.jpg": (451, 300), "coffee.png": (600, 400),
    "rocket.jpg": (640, 427), "ladybird.jpg": (2560, 1600), "marigold.jpg": (2560, 1600),
]

@Test(arguments: displaySizes.keys.sorted())
func everySampleReportsItsDisplaySizeAndDecodes(name: String) throws {
    let data = try Data(contentsOf: samples.appendingPathComponent(name))
    let size = try #require(displaySizes[name])
    let info = try ImageDecoder.info(data)
    #expect((info.width, info.height) == size)
    // Scaled down so the debug build stays quick; the aspect ratio must survive scale and rotation.
    let image = try ImageDecoder.decode(data, maxDimension: 256)
    #expect((image.width > image.height) == (size.0 > size.1))
}

@Test func theSampleTwelveMegapixelPhotoIsAtLeastTwelveMegapixels() throws {
    let info = try ImageDecoder.info(Data(contentsOf: samples.appendingPathComponent("nuthatch-20mp.jpg")))
    #expect(info.width * info.height >= 12_000_000)
}

@Test func theDeliberatelyBrokenSampleIsReportedAsTruncated() throws {
    let data = try Data(contentsOf: samples.appendingPathComponent("invalid/ladybird-truncated.jpg"))
    #expect(throws: ImageCodecError.truncated) { try ImageDecoder.decode(data) }
    #expect(throws: ImageCodecError.truncated) { try ImageDecoder.decode(data, maxDimension: 200) }
}
