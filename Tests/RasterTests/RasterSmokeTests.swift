import Testing
@testable import Raster

@Test func anImageFilledWithOneColourReadsBackThatColourEverywhere() {
    let red = RGBA8(r: 255, g: 0, b: 0)
    let image = Image(width: 3, height: 2, fill: red)
    #expect(image.pixels.count == 24)
    #expect(image[2, 1] == red)
}
