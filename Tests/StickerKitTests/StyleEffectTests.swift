import Testing
import Raster
@testable import StickerKit

/// A hard-edged disc of `radius` pixels centred in a square of side `2 · radius + 2`, coloured by
/// `color(x, y)`.
private func disc(radius: Int, color: (Int, Int) -> RGBA8) -> Image {
    let side = 2 * radius + 2
    var image = Image(width: side, height: side)
    let c = Float(side) / 2
    for y in 0..<side {
        for x in 0..<side where discDistance(x, y, centre: c) <= Float(radius) {
            image[x, y] = color(x, y)
        }
    }
    return image
}

/// Distance of pixel (x, y)'s centre from `centre` (both axes).
private func discDistance(_ x: Int, _ y: Int, centre: Float) -> Float {
    let dx = Float(x) + 0.5 - centre, dy = Float(y) + 0.5 - centre
    return (dx * dx + dy * dy).squareRoot()
}

/// Many colours: a hue sweep with a pseudo-random grain, as a photo has.
private func texturedDisc(radius: Int) -> Image {
    var seed: UInt32 = 3
    return disc(radius: radius) { x, y in
        seed = seed &* 1664525 &+ 1013904223
        let grain = Int(seed >> 27) - 16
        func byte(_ v: Int) -> UInt8 { UInt8(max(0, min(255, v))) }
        return RGBA8(r: byte(200 - x + grain), g: byte(60 + y + grain), b: byte(90 + (x + y) / 3 + grain))
    }
}

private func distinctColors(_ image: Image, where include: (Int, Int) -> Bool) -> Set<RGBA8> {
    var colors = Set<RGBA8>()
    for y in 0..<image.height {
        for x in 0..<image.width where image[x, y].a == 255 && include(x, y) { colors.insert(image[x, y]) }
    }
    return colors
}

@Test("the outline is a ring of the chosen colour and width around a disc")
func outlineRingHasTheChosenColourAndWidth() throws {
    let radius = 40, width = 8
    let blue = RGBA8(r: 30, g: 140, b: 200)
    let pink = try #require(RGBA8(hex: "#FF3366"))
    var style = StickerStyle(outlineWidth: width)
    style.outlineColor = pink
    let cutOut = disc(radius: radius) { _, _ in blue }
    let sticker = style.apply(to: cutOut)
    let margin = (sticker.width - cutOut.width) / 2
    let centre = Float(margin) + Float(cutOut.width) / 2
    var ringPixels = 0
    for y in 0..<sticker.height {
        for x in 0..<sticker.width {
            let d = discDistance(x, y, centre: centre), p = sticker[x, y]
            if d < Float(radius) - 1 {
                #expect(p == blue)
            } else if d > Float(radius) + 1.5 && d < Float(radius + width) - 1.5 {
                #expect(p == pink, "(\(x), \(y)) at \(d) px from the centre")
                ringPixels += 1
            } else if d > Float(radius + width) + 2 {
                #expect(p.a == 0)
            }
        }
    }
    #expect(ringPixels > 1000)
    // Measured along the four axes: opaque outline-coloured pixels in a row.
    let mid = margin + cutOut.width / 2
    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        var run = 0, x = mid, y = mid
        while x >= 0, y >= 0, x < sticker.width, y < sticker.height {
            if sticker[x, y] == pink { run += 1 }
            x += dx; y += dy
        }
        #expect(abs(run - width) <= 1, "ring \(run) px thick, going (\(dx), \(dy))")
    }
}

@Test("hex colours parse in long and short form, anything else is refused")
func hexColoursParse() {
    #expect(RGBA8(hex: "#FF3366") == RGBA8(r: 255, g: 51, b: 102))
    #expect(RGBA8(hex: "ff3366") == RGBA8(r: 255, g: 51, b: 102))
    #expect(RGBA8(hex: "#fff") == RGBA8(r: 255, g: 255, b: 255))
    #expect(RGBA8(hex: "#0a0") == RGBA8(r: 0, g: 170, b: 0))
    for bad in ["", "#", "#12345", "#1234567", "#GG0000", "red", "#+12", " #FFFFFF"] {
        #expect(RGBA8(hex: bad) == nil, "\(bad)")
    }
    #expect(RGBA8(r: 255, g: 51, b: 102).hex == "#FF3366")
}

@Test("comic reduces the subject to a few flat tones inside a dark ink line")
func comicPosterisesAndInks() {
    let radius = 150
    let cutOut = texturedDisc(radius: radius)
    let centre = Float(cutOut.width) / 2
    #expect(distinctColors(cutOut) { _, _ in true }.count > 1000)
    let style = StickerStyle(outlineWidth: 5, effect: .comic)
    let sticker = style.apply(to: cutOut)
    let margin = (sticker.width - cutOut.width) / 2
    let ink = StickerRenderer(style: style, cutOut: cutOut).comic.inkWidth(width: cutOut.width, height: cutOut.height)
    let stickerCentre = Float(margin) + centre
    // Inside the ink line: at most eight flat tones.
    let tones = distinctColors(sticker) { x, y in discDistance(x, y, centre: stickerCentre) < Float(radius) - ink - 1.5 }
    #expect(tones.count <= 8 && tones.count >= 3, "\(tones.count) tones")
    // The ink line just inside the outline: its pixels are the ink (a few on the diagonals, where
    // the pixel grid's distances fall between whole pixels, are partly inked).
    var band = 0, inked = 0
    for y in 0..<sticker.height {
        for x in 0..<sticker.width {
            let d = Float(radius) - discDistance(x, y, centre: stickerCentre)
            guard d > 0.5, d < ink - 0.5 else { continue }
            band += 1
            if sticker[x, y] == ComicEffect.ink { inked += 1 }
        }
    }
    #expect(band > 500 && inked * 100 >= band * 95, "\(inked) of \(band) pixels inked")
    // The outline is still the outline.
    #expect(sticker[margin - 3, sticker.height / 2] == RGBA8(r: 255, g: 255, b: 255))
}

@Test("puffy shades only the sticker itself: alpha, the outside and the flat middle stay as they were")
func puffyChangesOnlyThePixelsInside() {
    let radius = 80
    let cutOut = texturedDisc(radius: radius)
    let plain = StickerStyle(outlineWidth: 6).apply(to: cutOut)
    let puffy = StickerStyle(outlineWidth: 6, effect: .puffy).apply(to: cutOut)
    #expect(plain.width == puffy.width && plain.height == puffy.height)
    let margin = (plain.width - cutOut.width) / 2
    let centre = Float(margin) + Float(cutOut.width) / 2
    var changed = 0
    for y in 0..<plain.height {
        for x in 0..<plain.width {
            let p = plain[x, y], q = puffy[x, y]
            #expect(p.a == q.a)
            if p.a == 0 { #expect(q == p); continue }
            if p != q { changed += 1 }
            // The cushion is flat in the middle: colours kept exactly.
            if discDistance(x, y, centre: centre) < Float(radius) / 2 { #expect(p == q) }
        }
    }
    #expect(changed > 500)
    // Lit from the top left: the top-left rim brighter than the bottom-right one.
    let topLeft = puffy[margin + 20, margin + 20], bottomRight = puffy[puffy.width - margin - 20, puffy.height - margin - 20]
    #expect(Int(topLeft.r) + Int(topLeft.g) + Int(topLeft.b) > Int(bottomRight.r) + Int(bottomRight.g) + Int(bottomRight.b))
}

@Test("a shadow changes only pixels outside the outline")
func shadowChangesOnlyTheOutside() {
    let cutOut = texturedDisc(radius: 50)
    let plain = StickerStyle(outlineWidth: 5).apply(to: cutOut)
    let shadowed = StickerStyle(outlineWidth: 5, shadow: StickerStyle.Shadow()).apply(to: cutOut)
    let offset = (shadowed.width - plain.width) / 2
    #expect(offset > 0 && shadowed.height - plain.height == 2 * offset)
    var shaded = 0
    for y in 0..<shadowed.height {
        for x in 0..<shadowed.width {
            let px = x - offset, py = y - offset
            let inPlain = px >= 0 && py >= 0 && px < plain.width && py < plain.height
            let before = inPlain ? plain[px, py] : RGBA8(r: 0, g: 0, b: 0, a: 0)
            if before.a == 255 { #expect(shadowed[x, y] == before) } else if shadowed[x, y] != before { shaded += 1 }
        }
    }
    #expect(shaded > 500)
}

@Test("every effect gives the same pixels composited in row bands", arguments: [StickerStyle.Effect.comic, .puffy])
func effectsInRowBandsGiveTheSamePixels(effect: StickerStyle.Effect) async {
    let cutOut = texturedDisc(radius: 30)
    var style = StickerStyle(outlineWidth: 3, effect: effect)
    style.shadow = StickerStyle.Shadow()
    #expect(await style.apply(to: cutOut, bands: 3) == style.apply(to: cutOut))
}

@Test("restyling redraws from the kept cut-out, and needs one")
func restylingUsesTheKeptCutOut() async throws {
    let cutOut = texturedDisc(radius: 20)
    let mask = Mask(width: 100, height: 80, fill: 0)
    let kept = SubjectExtractor.CutOut(mask: mask, image: cutOut, originX: 10, originY: 5)
    let sticker = Sticker(image: StickerStyle().apply(to: cutOut), mask: mask, cutOut: kept)
    let comic = StickerStyle(outlineWidth: 4, effect: .comic)
    let restyled = try #require(await sticker.restyled(with: comic))
    #expect(restyled.image == comic.apply(to: cutOut))
    #expect(restyled.style == comic && restyled.mask == mask && restyled.cutOut == kept)
    // Back to the first style: the first image again.
    #expect(await restyled.restyled(with: StickerStyle())?.image == sticker.image)

    let photo = ProcessedPhoto(sticker: sticker, colorScheme: PhotoColorScheme(colors: [PaletteColor(red: 1, green: 2, blue: 3, weight: 1)]))
    let restyledPhoto = try #require(await photo.restyled(with: comic))
    #expect(restyledPhoto.colorScheme == photo.colorScheme && restyledPhoto.sticker.image == restyled.image)

    let bare = Sticker(image: sticker.image, mask: mask)
    #expect(await bare.restyled(with: comic) == nil)
}
