import Raster
import Testing
@testable import StickerKit

/// A `width`×`height` image whose pixel colours come from `colour(x, y)`.
func makeImage(width: Int, height: Int, _ colour: (Int, Int) -> RGBA8) -> Image {
    var image = Image(width: width, height: height)
    for y in 0..<height { for x in 0..<width { image[x, y] = colour(x, y) } }
    return image
}

/// A photo-like test image: smooth gradients in three hues plus a little deterministic noise.
func busyImage(width: Int = 96, height: Int = 64) -> Image {
    var generator = SplitMix64(seed: 7)
    return makeImage(width: width, height: height) { x, y in
        let noise = Int(generator.next() % 9) - 4
        func clamp(_ v: Int) -> UInt8 { UInt8(min(max(v + noise, 0), 255)) }
        switch x * 3 / width {
        case 0: return RGBA8(r: clamp(40 + y * 3), g: clamp(90), b: clamp(200 - y))
        case 1: return RGBA8(r: clamp(230), g: clamp(120 + y * 2), b: clamp(30))
        default: return RGBA8(r: clamp(20 + x), g: clamp(160 - y), b: clamp(60 + y))
        }
    }
}

private let red = RGBA8(r: 255, g: 0, b: 0)
private let blue = RGBA8(r: 0, g: 0, b: 255)

@Suite struct ColorExtractorTests {
    @Test func theSameInputAlwaysGivesTheSameSchemeEvenFromAnotherExtractor() {
        let image = busyImage()
        let first = ColorExtractor().extractColors(from: image, count: 8)
        let reused = ColorExtractor()
        _ = reused.extractColors(from: makeImage(width: 5, height: 5) { _, _ in red }, count: 3)
        #expect(reused.extractColors(from: image, count: 8) == first)
        #expect(ColorExtractor().extractColors(from: image, count: 8) == first)
    }

    @Test func aTwoColourImageYieldsExactlyThoseColoursAndTheirShares() {
        let image = makeImage(width: 40, height: 10) { x, _ in x < 30 ? red : blue }
        let scheme = ColorExtractor().extractColors(from: image, count: 5)
        #expect(scheme.colors.map(\.hex) == ["#FF0000", "#0000FF"])
        #expect(abs(scheme.colors[0].weight - 0.75) < 1e-6)
        #expect(abs(scheme.colors[1].weight - 0.25) < 1e-6)
    }

    @Test func aSingleColourImageAskedForFiveReturnsOneColour() {
        let teal = RGBA8(r: 0, g: 128, b: 128)
        let scheme = ColorExtractor().extractColors(from: makeImage(width: 32, height: 32) { _, _ in teal }, count: 5)
        #expect(scheme.colors == [PaletteColor(red: 0, green: 128, blue: 128, weight: 1)])
    }

    @Test func nearlyIdenticalShadesAreMergedIntoOneColour() {
        // Two greys one 8-bit step apart: no person tells them apart.
        let image = makeImage(width: 20, height: 20) { x, _ in
            x < 10 ? RGBA8(r: 120, g: 120, b: 120) : RGBA8(r: 121, g: 121, b: 121)
        }
        let scheme = ColorExtractor().extractColors(from: image, count: 5)
        #expect(scheme.colors.count == 1)
        #expect(scheme.colors.first?.weight == 1)
    }

    @Test func fullyTransparentPixelsAreIgnored() {
        // The transparent half carries a vivid green that must not show up.
        let image = makeImage(width: 20, height: 20) { x, _ in
            x < 10 ? RGBA8(r: 0, g: 255, b: 0, a: 0) : red
        }
        let scheme = ColorExtractor().extractColors(from: image, count: 3)
        #expect(scheme.colors == [PaletteColor(red: 255, green: 0, blue: 0, weight: 1)])
    }

    @Test func anImageWithNothingVisibleHasAnEmptyScheme() {
        let image = Image(width: 8, height: 8)
        #expect(ColorExtractor().extractColors(from: image, count: 5).colors.isEmpty)
        #expect(ColorExtractor().extractColors(from: Image(width: 0, height: 0), count: 5).colors.isEmpty)
    }

    @Test func aMaskRestrictsTheColoursToTheSubjectAndMayHaveAnotherSize() {
        let image = makeImage(width: 40, height: 40) { x, _ in x < 20 ? red : blue }
        // A mask at half the size, covering the right (blue) half only.
        var mask = Mask(width: 20, height: 20)
        for y in 0..<20 { for x in 10..<20 { mask[x, y] = 255 } }
        let scheme = ColorExtractor().extractColors(from: image, count: 3, mask: mask)
        #expect(scheme.colors.map(\.hex) == ["#0000FF"])
    }

    @Test func partlyTransparentMaskPixelsCountInProportion() {
        let image = makeImage(width: 20, height: 10) { x, _ in x < 10 ? red : blue }
        var mask = Mask(width: 20, height: 10, fill: 255)
        for y in 0..<10 { for x in 0..<10 { mask[x, y] = 85 } }  // the red half counts one third
        let scheme = ColorExtractor().extractColors(from: image, count: 3, mask: mask)
        #expect(scheme.colors.map(\.hex) == ["#0000FF", "#FF0000"])
        #expect(abs(scheme.colors[0].weight - 0.75) < 1e-3)
    }

    @Test(arguments: [3, 5, 8, 10])
    func aBusyImageGivesDistinctColoursSortedByWeightThatSumToOne(count: Int) {
        let scheme = ColorExtractor().extractColors(from: busyImage(), count: count)
        #expect(scheme.colors.count >= 3 && scheme.colors.count <= count)
        #expect(abs(scheme.colors.reduce(0) { $0 + $1.weight } - 1) < 1e-9)
        #expect(zip(scheme.colors, scheme.colors.dropFirst()).allSatisfy { $0.weight >= $1.weight })
        #expect(Set(scheme.colors.map(\.hex)).count == scheme.colors.count)
        let labs = scheme.colors.map { OKLab(red: $0.red, green: $0.green, blue: $0.blue) }
        for i in labs.indices { for j in labs.indices where j > i { #expect(labs[i].distance(to: labs[j]) >= 0.015) } }
    }

    @Test func aLargeImageIsAreaAveragedAndKeepsItsProportions() {
        // 1200×300 is reduced to 256×64; the two halves keep their shares.
        let image = makeImage(width: 1200, height: 300) { x, _ in x < 600 ? red : blue }
        let scheme = ColorExtractor().extractColors(from: image, count: 4)
        #expect(Set(scheme.colors.map(\.hex)).isSuperset(of: ["#FF0000", "#0000FF"]))
        let redShare = scheme.colors.first { $0.hex == "#FF0000" }?.weight ?? 0
        #expect(abs(redShare - 0.5) < 0.01)
    }

    @Test func moreColoursNeverFitThePixelsWorse() {
        let image = busyImage()
        func meanError(_ scheme: PhotoColorScheme) -> Float {
            let palette = scheme.colors.map { OKLab(red: $0.red, green: $0.green, blue: $0.blue) }
            var total: Float = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image[x, y], lab = OKLab(red: p.r, green: p.g, blue: p.b)
                    total += palette.map { $0.distance(to: lab) }.min() ?? 0
                }
            }
            return total / Float(image.pixelCount)
        }
        let errors = [3, 5, 8].map { meanError(ColorExtractor().extractColors(from: image, count: $0)) }
        #expect(errors[0] > errors[1] && errors[1] > errors[2])
    }
}
