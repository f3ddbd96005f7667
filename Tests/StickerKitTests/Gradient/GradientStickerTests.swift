import Raster
import Testing
@testable import StickerKit

@Suite struct GradientStickerTests {
    let red = PaletteColor(red: 255, green: 0, blue: 0, weight: 0.6)
    let blue = PaletteColor(red: 0, green: 0, blue: 255, weight: 0.4)

    @Test func theGradientRunsFromTheHeaviestColourToTheLightestCorner() {
        let sticker = Image(width: 10, height: 10) // fully transparent
        let out = GradientSticker(padding: 0.5).render(sticker, colors: [red, blue])

        #expect(out.width == 20 && out.height == 20)
        #expect(out[0, 0] == RGBA8(r: 255, g: 0, b: 0))
        #expect(out[19, 19] == RGBA8(r: 0, g: 0, b: 255))
    }

    @Test func opaqueStickerPixelsCoverTheGradientAndEveryPixelIsOpaque() {
        var sticker = Image(width: 4, height: 4)
        sticker[1, 1] = RGBA8(r: 10, g: 200, b: 30)
        let out = GradientSticker(padding: 0.25).render(sticker, colors: [red, blue])

        #expect(out[2, 2] == RGBA8(r: 10, g: 200, b: 30))
        #expect(stride(from: 3, to: out.pixels.count, by: 4).allSatisfy { out.pixels[$0] == 255 })
    }

    @Test func aSchemeWithoutColoursGivesAWhiteBackground() {
        let out = GradientSticker().render(Image(width: 3, height: 3), colors: [])
        #expect(out[0, 0] == RGBA8(r: 255, g: 255, b: 255))
    }
}
