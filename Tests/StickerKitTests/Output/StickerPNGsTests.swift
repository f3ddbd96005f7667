import Foundation
import Testing
import Raster
@testable import StickerKit

/// `sticker` encodes its PNGs side by side, each in bands: the files must be what each image's
/// banded encoding gives on its own, whatever order the encodes finish in.

private func picture(width: Int, height: Int) -> Image {
    var image = Image(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            image[x, y] = RGBA8(r: UInt8((x * 7 + y) % 256), g: UInt8((x * y) % 256), b: UInt8((y * 13) % 256),
                                a: UInt8((x + 3 * y) % 256))
        }
    }
    return image
}

@Test func bandedPNGsSideBySideAreEachImagesOwnBandedPNG() async throws {
    // Large enough for two bands (a megabyte of pixels per band).
    let image = picture(width: 700, height: 800)
    var mask = Mask(width: 1200, height: 900)
    for i in mask.values.indices { mask.values[i] = UInt8((i * 31 / 7) % 256) }
    let photo = ProcessedPhoto(sticker: Sticker(image: image, mask: mask),
                               colorScheme: PhotoColorScheme(colors: []))
    let pngs = try await StickerPNGs.render(photo, kinds: [.sticker, .mask], encoding: .banded)
    #expect(pngs.sticker == (try await ImageEncoder.concurrentPNG(image)))
    #expect(pngs.mask == (try await ImageEncoder.concurrentPNG(mask)))
    #expect(pngs.gradient == nil && pngs.cutOut == nil)
    #expect(try ImageDecoder.decode(pngs.sticker).pixels == image.pixels)
}

@Test func bandedPNGsLeaveOutTheKindsNotAskedFor() async throws {
    let photo = ProcessedPhoto(sticker: Sticker(image: picture(width: 40, height: 30), mask: Mask(width: 50, height: 60)),
                               colorScheme: PhotoColorScheme(colors: []))
    let pngs = try await StickerPNGs.render(photo, kinds: [.sticker], encoding: .banded)
    #expect(pngs.mask == nil && pngs.gradient == nil && pngs.cutOut == nil)
}
