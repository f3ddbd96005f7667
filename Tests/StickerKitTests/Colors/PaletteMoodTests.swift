import Raster
import Testing
@testable import StickerKit

/// Mean OKLCH lightness and chroma of a scheme's colours (unweighted: how the palette looks).
func meanLightnessAndChroma(_ scheme: PhotoColorScheme) -> (L: Float, C: Float) {
    let labs = scheme.colors.map { OKLab(red: $0.red, green: $0.green, blue: $0.blue) }
    let n = Float(max(labs.count, 1))
    return (labs.reduce(0) { $0 + $1.L } / n, labs.reduce(0) { $0 + ($1.a * $1.a + $1.b * $1.b).squareRoot() } / n)
}

/// A landscape-like image: dark vivid blue, a muted grey-green, light pastel sky, vivid orange,
/// near-black shadow, with a little noise.
private func moodImage() -> Image {
    var generator = SplitMix64(seed: 11)
    return makeImage(width: 120, height: 80) { x, y in
        let noise = Int(generator.next() % 7) - 3
        func c(_ v: Int) -> UInt8 { UInt8(min(max(v + noise, 0), 255)) }
        switch (x / 24, y / 40) {
        case (0, _): return RGBA8(r: c(20), g: c(40), b: c(140))
        case (1, _): return RGBA8(r: c(120), g: c(130), b: c(115))
        case (2, 0): return RGBA8(r: c(200), g: c(225), b: c(245))
        case (2, _): return RGBA8(r: c(240), g: c(120), b: c(20))
        case (3, _): return RGBA8(r: c(15), g: c(15), b: c(18))
        default: return RGBA8(r: c(90 + y), g: c(70), b: c(60 + x / 2))
        }
    }
}

@Suite struct PaletteMoodTests {
    @Test("each mood moves the palette's mean lightness or chroma the way its name says")
    func moodsMoveTheRightWay() {
        let image = moodImage()
        let base = meanLightnessAndChroma(ColorExtractor().extractColors(from: image, count: 5))
        func mood(_ mood: PaletteMood) -> (L: Float, C: Float) {
            meanLightnessAndChroma(ColorExtractor().extractColors(from: image, count: 5, mood: mood))
        }
        #expect(mood(.colorful).C > base.C)
        #expect(mood(.muted).C < base.C)
        #expect(mood(.bright).L > base.L)
        #expect(mood(.dark).L < base.L)
        let deep = mood(.deep)
        #expect(deep.L < base.L && deep.C >= base.C * 0.9, "darker, keeping chroma")
    }

    @Test("every mood colour is the colour of real pixels: within a few ΔE of one", arguments: PaletteMood.allCases)
    func moodColoursComeFromThePhoto(mood: PaletteMood) {
        let image = moodImage()
        let pixels = image.pixels
        let labs = stride(from: 0, to: pixels.count, by: 4).map { OKLab(red: pixels[$0], green: pixels[$0 + 1], blue: pixels[$0 + 2]) }
        let scheme = ColorExtractor().extractColors(from: image, count: 5, mood: mood)
        #expect(scheme.colors.count == 5)
        #expect(abs(scheme.colors.reduce(0) { $0 + $1.weight } - 1) < 1e-9)
        for color in scheme.colors {
            let lab = OKLab(red: color.red, green: color.green, blue: color.blue)
            let nearest = labs.map { $0.distance(to: lab) }.min() ?? .infinity
            #expect(nearest < 0.03, "\(mood) \(color.hex) is \(nearest) from every pixel")
        }
    }

    @Test("a mood palette is deterministic and its colours visibly distinct")
    func deterministicAndDistinct() {
        let image = busyImage()
        for mood in PaletteMood.allCases {
            let scheme = ColorExtractor().extractColors(from: image, count: 6, mood: mood)
            #expect(scheme == ColorExtractor().extractColors(from: image, count: 6, mood: mood))
            let labs = scheme.colors.map { OKLab(red: $0.red, green: $0.green, blue: $0.blue) }
            for i in labs.indices { for j in labs.indices where j > i { #expect(labs[i].distance(to: labs[j]) >= 0.015) } }
        }
    }

    @Test("a one-colour image gives that colour in every mood")
    func flatImage() {
        let flat = makeImage(width: 20, height: 20) { _, _ in RGBA8(r: 200, g: 40, b: 40) }
        for mood in PaletteMood.allCases {
            #expect(ColorExtractor().extractColors(from: flat, count: 5, mood: mood).colors.map(\.hex) == ["#C82828"])
        }
    }
}
