import Testing
import Raster
@testable import StickerKit

/// The full-size stages split into row bands on parallel tasks must give exactly the one-pass result.

/// A photo with structure in every row and column.
private func photo(width: Int, height: Int) -> Image {
    var image = Image(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            image[x, y] = RGBA8(r: UInt8((x * 7 + y) % 256), g: UInt8((x * y) % 256), b: UInt8((y * 13) % 256))
        }
    }
    return image
}

@Test func rowBandsCoverTheRangeInOrderWithoutOverlap() {
    for (count, bands) in [(10, 3), (2, 8), (1, 1), (7, 7)] {
        let ranges = rowBands(count, count: bands)
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == count)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        #expect(ranges.allSatisfy { !$0.isEmpty })
    }
}

@Test(arguments: [1, 2, 3, 5])
func aReductionInRowBandsEqualsTheOnePassReduction(bands: Int) async {
    let image = photo(width: 53, height: 41)
    let banded = await ColorPlanes.reduced(image, factor: 4, bands: bands)
    let whole = ColorPlanes.reduced(image, factor: 4)
    #expect(banded.width == whole.width && banded.height == whole.height)
    #expect(banded.red == whole.red && banded.green == whole.green && banded.blue == whole.blue)
}

@Test(arguments: [1, 2, 4])
func theFullSizeMaskAndCutOutInRowBandsEqualTheOnePassOnes(bands: Int) async throws {
    let image = photo(width: 61, height: 47)
    // A soft-edged blob at the working size (factor 3).
    let (ww, wh) = (20, 15)
    let alpha = (0..<(ww * wh)).map { i -> Float in
        let dx = Float(i % ww - 10), dy = Float(i / ww - 7)
        return min(1, max(0, 6 - (dx * dx + dy * dy).squareRoot()) / 2)
    }
    let full = FullResolution(image: image, alpha: Plane(width: ww, height: wh, values: alpha), factor: 3)
    let mask = await full.mask(bands: bands)
    #expect(mask == full.mask())
    let box = try #require(mask.bounds)
    let work = ColorPlanes.reduced(image, factor: 3)
    let colors = await ForegroundEstimator(radii: [4, 1]).estimate(image: work, alpha: alpha)
    let banded = await full.cutOut(mask: mask, in: box, colors: colors, bands: bands)
    #expect(banded == full.cutOut(mask: mask, in: box, colors: colors))
}

@Test("Colour planes are resampled with Raster's area taps, as Image.resized(filter: .area) resamples",
      arguments: [(20, 15), (61, 47), (90, 70)])
func colourPlanesResampleAsRasterDoes(size: (Int, Int)) async {
    let image = photo(width: 61, height: 47)
    let planes = await ColorPlanes.resampled(image, width: size.0, height: size.1, bands: 2)
    let reference = image.resized(width: size.0, height: size.1, filter: .area)
    let bytes = planes.image.pixels
    #expect(zip(bytes, reference.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 })
}
