import Testing
import Raster
@testable import StickerKit

@Test func distanceTransformMatchesBruteForce() {
    let w = 23, h = 17
    var seed: UInt32 = 7
    var features = [Bool](repeating: false, count: w * h)
    for i in 0..<(w * h) { seed = seed &* 1664525 &+ 1013904223; features[i] = seed >> 28 == 0 }
    let d = DistanceTransform.squaredDistances(width: w, height: h) { features[$0] }
    for y in 0..<h {
        for x in 0..<w {
            var best = Float.infinity
            for j in 0..<(w * h) where features[j] {
                let dx = Float(j % w - x), dy = Float(j / w - y)
                best = min(best, dx * dx + dy * dy)
            }
            #expect(d[y * w + x] == best)
        }
    }
}

@Test(arguments: [1, 2, 3, 5])
func distanceTransformInBandsMatchesTheSerialOne(bands: Int) async {
    let w = 41, h = 29
    var seed: UInt32 = 11
    var features = [Bool](repeating: false, count: w * h)
    for i in 0..<(w * h) { seed = seed &* 1664525 &+ 1013904223; features[i] = seed >> 29 == 0 }
    let serial = DistanceTransform.squaredDistances(width: w, height: h) { features[$0] }
    #expect(await DistanceTransform.squaredDistances(width: w, height: h, features: features, bands: bands) == serial)
    let none = [Bool](repeating: false, count: w * h)
    #expect(await DistanceTransform.squaredDistances(width: w, height: h, features: none, bands: bands)
            .allSatisfy { $0 == .infinity })
}

@Test func aGridCellIsSolidWhenAnyOfItsPixelsIsAtLeastHalfOpaque() {
    // Scattered opaque pixels on a coarse grid (3×3 canvas pixels per cell, a margin not a multiple of 3).
    var cutOut = Image(width: 50, height: 31)
    var seed: UInt32 = 5
    for y in 0..<31 {
        for x in 0..<50 {
            seed = seed &* 1664525 &+ 1013904223
            cutOut[x, y] = RGBA8(r: 0, g: 0, b: 0, a: seed >> 28 == 0 ? 128 : 127)
        }
    }
    var renderer = StickerRenderer(style: StickerStyle(outlineWidth: 5), cutOut: cutOut)
    renderer.maximumGridSide = 24
    let grid = StickerRenderer.Layers.Grid(renderer)!
    #expect(grid.step == 3 && grid.margin % 3 != 0)
    var expected = [Bool](repeating: false, count: grid.width * grid.height)
    for y in 0..<31 {
        for x in 0..<50 where cutOut[x, y].a >= 128 {
            expected[(y + grid.margin) / grid.step * grid.width + (x + grid.margin) / grid.step] = true
        }
    }
    #expect(StickerRenderer.Layers.solidCells(of: cutOut, on: grid, rows: 0..<grid.height) == expected)
    let split = grid.height / 3
    #expect(StickerRenderer.Layers.solidCells(of: cutOut, on: grid, rows: 0..<split)
            + StickerRenderer.Layers.solidCells(of: cutOut, on: grid, rows: split..<grid.height) == expected)
}

/// A red opaque square cut-out of `side` pixels.
private func square(_ side: Int) -> Image {
    Image(width: side, height: side, fill: RGBA8(r: 200, g: 0, b: 0, a: 255))
}

@Test func theOutlineHasTheRequestedWidthAndRoundCorners() {
    let sticker = StickerStyle(outlineWidth: 6).apply(to: square(40))
    let margin = (sticker.width - 40) / 2
    #expect(margin >= 6)
    let midY = sticker.height / 2
    // Straight out from the middle of the left side: white for 6 pixels, then transparent.
    let left = margin - 1
    #expect(sticker[left, midY] == RGBA8(r: 255, g: 255, b: 255, a: 255))
    #expect(sticker[margin - 5, midY].a == 255)
    #expect(sticker[margin - 8, midY].a == 0)
    // Diagonally out from the corner: at (5, 5) the distance is 7.1 > 6: round, not square.
    #expect(sticker[margin - 5, margin - 5].a == 0)
    #expect(sticker[margin - 3, margin - 3].a == 255)   // distance 4.2
    // The subject itself is unchanged.
    #expect(sticker[margin + 20, margin + 20] == RGBA8(r: 200, g: 0, b: 0, a: 255))
}

@Test func theOutlineEdgeIsAntiAliased() {
    let sticker = StickerStyle(outlineWidth: 9).apply(to: square(60))
    let margin = (sticker.width - 60) / 2
    // Around the rounded corner some pixels are partly covered.
    var partial = 0
    for y in 0..<margin { for x in 0..<margin where sticker[x, y].a > 0 && sticker[x, y].a < 255 { partial += 1 } }
    #expect(partial > 3)
}

@Test func theDefaultOutlineIsTwoPercentOfTheSmallerSide() {
    #expect(StickerStyle().resolvedOutlineWidth(width: 500, height: 300) == 6)
    #expect(StickerStyle(outlined: false).resolvedOutlineWidth(width: 500, height: 300) == 0)
}

@Test func noOutlineLeavesTheCutOutAsItIs() {
    let sticker = StickerStyle.plain.apply(to: square(10))
    let m = (sticker.width - 10) / 2
    #expect(sticker[m, m] == RGBA8(r: 200, g: 0, b: 0, a: 255))
    #expect(sticker[m - 1, m].a == 0)
}

@Test func aShadowFallsSoftlyBelowTheSticker() {
    var style = StickerStyle(outlineWidth: 4)
    style.shadow = StickerStyle.Shadow()
    let sticker = style.apply(to: square(100))
    let m = (sticker.width - 100) / 2
    let belowOutline = m + 100 + 4 + 1
    let shade = sticker[m + 50, belowOutline]
    #expect(shade.a > 0 && shade.a < 128)
    #expect(shade.r < 40)
}

@Test(arguments: [1, 2, 3, 7])
func compositingInRowBandsGivesTheSamePixels(bands: Int) async {
    // A soft-edged disc so every layer (shadow, outline, partial alpha) shows.
    var disc = Image(width: 37, height: 29)
    for y in 0..<29 {
        for x in 0..<37 {
            let d = (Float(x - 18) * Float(x - 18) + Float(y - 14) * Float(y - 14)).squareRoot()
            disc[x, y] = RGBA8(r: 30, g: 140, b: 200, a: UInt8(max(0, min(255, (12 - d) * 64))))
        }
    }
    var style = StickerStyle(outlineWidth: 3)
    style.shadow = StickerStyle.Shadow()
    #expect(await style.apply(to: disc, bands: bands) == style.apply(to: disc))
    #expect(await StickerStyle.plain.apply(to: disc, bands: bands) == StickerStyle.plain.apply(to: disc))
}
