import Foundation
import Testing
@testable import Raster

/// Where each stored quadrant colour must appear on screen, per orientation, as
/// (top-left, top-right, bottom-left, bottom-right) of the displayed picture.
private let expectedCorners: [ExifOrientation: [RGBA8]] = [
    .up: [Colors.red, Colors.green, Colors.blue, Colors.white],
    .upMirrored: [Colors.green, Colors.red, Colors.white, Colors.blue],
    .down: [Colors.white, Colors.blue, Colors.green, Colors.red],
    .downMirrored: [Colors.blue, Colors.white, Colors.red, Colors.green],
    .leftMirrored: [Colors.red, Colors.blue, Colors.green, Colors.white],
    .right: [Colors.blue, Colors.red, Colors.white, Colors.green],
    .rightMirrored: [Colors.white, Colors.green, Colors.blue, Colors.red],
    .left: [Colors.green, Colors.white, Colors.red, Colors.blue],
]

private func corners(of image: Image) -> [RGBA8] {
    let w = image.width, h = image.height
    return [image[1, 1], image[w - 2, 1], image[1, h - 2], image[w - 2, h - 2]]
}

@Test(arguments: ExifOrientation.allCases, [true, false])
func decodingAJPEGAppliesEachExifOrientation(orientation: ExifOrientation, bigEndian: Bool) throws {
    let stored = TestImages.quadrants(width: 32, height: 16)
    let jpeg = TestImages.withOrientation(try ImageEncoder.jpeg(stored, quality: 95), orientation.rawValue,
                                          bigEndian: bigEndian)
    let image = try ImageDecoder.decode(jpeg)
    #expect((image.width, image.height) == (orientation.swapsDimensions ? (16, 32) : (32, 16)))
    let found = corners(of: image), expected = try #require(expectedCorners[orientation])
    for (a, b) in zip(found, expected) { #expect(a.isClose(to: b), "\(orientation): \(found)") }

    let info = try ImageDecoder.info(jpeg)
    #expect(info == ImageInfo(format: .jpeg, width: image.width, height: image.height, orientation: orientation))
}

@Test(arguments: ExifOrientation.allCases)
func orientingAMaskMovesEveryValueLikeTheImage(orientation: ExifOrientation) {
    let image = TestImages.gradient(width: 5, height: 3)
    let mask = Mask(width: 5, height: 3, values: (0..<15).map { UInt8($0) })
    let orientedImage = image.oriented(orientation), orientedMask = mask.oriented(orientation)
    #expect((orientedMask.width, orientedMask.height) == (orientedImage.width, orientedImage.height))
    // The mask value names its source pixel, so the image pixel at the same place must match.
    for y in 0..<orientedMask.height {
        for x in 0..<orientedMask.width {
            let source = Int(orientedMask[x, y])
            #expect(orientedImage[x, y] == image[source % 5, source / 5])
        }
    }
}

@Test func anExifBlockWithoutAnOrientationTagMeansUpright() throws {
    var jpeg = [UInt8](try ImageEncoder.jpeg(TestImages.quadrants(), quality: 90))
    // An APP1 "Exif" with a TIFF header whose IFD0 is empty.
    let payload: [UInt8] = Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]
    jpeg.insert(contentsOf: [0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload, at: 2)
    #expect(try ImageDecoder.info(Data(jpeg)).orientation == .up)
    #expect(try ImageDecoder.decode(Data(jpeg)).width == 32)
}
