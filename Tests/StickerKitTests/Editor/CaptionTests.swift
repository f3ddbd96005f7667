import Foundation
import Raster
import Testing
@testable import StickerKit
import TestSupport

/// A styled sticker stand-in: an opaque disc, outlined, on a transparent canvas.
private func sticker(width: Int = 600, height: Int = 480) -> Image {
    let disc = SubjectScenes.disc(width: width, height: height, centerX: Double(width) / 2, centerY: Double(height) / 2,
                                  radius: Double(min(width, height)) * 0.4)
    var image = disc.image
    for i in 0..<(width * height) { image.pixels[i * 4 + 3] = UInt8((disc.truth[i] * 255).rounded()) }
    return image
}

/// Whether any pixel within `border` pixels of the image's edge has alpha.
private func touchesEdge(_ image: Image, border: Int = 1) -> Bool {
    for y in 0..<image.height {
        for x in 0..<image.width where x < border || y < border || x >= image.width - border || y >= image.height - border {
            if image.pixels[(y * image.width + x) * 4 + 3] != 0 { return true }
        }
    }
    return false
}

@Test("Short and long captions, at the top and at the bottom, are read back by OCR", arguments: [
    ("GOOD MORNING", Caption.Position.top), ("GOOD MORNING", .bottom),
    ("WHEN THE COFFEE FINALLY KICKS IN AND EVERYTHING MAKES SENSE AGAIN FOR FIVE MINUTES", .top),
    ("WHEN THE COFFEE FINALLY KICKS IN AND EVERYTHING MAKES SENSE AGAIN FOR FIVE MINUTES", .bottom),
])
func captionsAreLegible(text: String, position: Caption.Position) throws {
    let base = sticker()
    let captioned = try Caption(text: text, position: position).apply(to: base)
    #expect(captioned.width >= base.width && captioned.height > base.height)
    // The text band alone is what is read (the disc is not text).
    let band = position == .top
        ? captioned.cropped(x: 0, y: 0, width: captioned.width, height: captioned.height - base.height)
        : captioned.cropped(x: 0, y: base.height, width: captioned.width, height: captioned.height - base.height)
    let read = OCR.normalized(try OCR.read(band, background: RGBA8(r: 0, g: 0, b: 0), inverted: true))
    let words = OCR.normalized(text).split(separator: " ")
    let found = words.filter { read.contains($0) }
    #expect(found.count == words.count, "read: \(read)")
}

@Test("A long caption wraps onto lines and shrinks to stay within half the sticker's height")
func longCaptionsWrap() throws {
    let base = sticker()
    let short = try Caption(text: "HI").apply(to: base)
    let long = try Caption(text: String(repeating: "wrap me please ", count: 13)).apply(to: base)
    #expect(long.height - base.height > short.height - base.height)
    #expect(long.height - base.height <= Int(Double(max(base.width, base.height)) * 0.6))
    #expect(long.width <= Int(Double(max(base.width, base.height)) * 0.85) + 2 || long.width == base.width)
}

@Test("No caption pixel touches the canvas edge, before or after fitting onto a 512 px canvas", arguments: [
    (600, 480, Caption.Position.top), (600, 480, .bottom), (200, 900, .bottom), (1400, 300, .top), (90, 60, .bottom),
])
func captionsKeepAMargin(width: Int, height: Int, position: Caption.Position) throws {
    let text = "Mmm WWW gggjjj ÉÀÇ " + String(repeating: "wide ", count: 12)
    // The sticker itself is transparent: every opaque pixel is the caption's.
    let captioned = try Caption(text: text, position: position).apply(to: Image(width: width, height: height))
    #expect(!touchesEdge(captioned, border: 3))
    let scale = 512 / Double(max(captioned.width, captioned.height))
    let fitted = captioned.resized(width: max(1, Int((Double(captioned.width) * scale).rounded())),
                                   height: max(1, Int((Double(captioned.height) * scale).rounded())), filter: .area)
    #expect(!touchesEdge(fitted, border: 2))
}

@Test("A Cyrillic caption renders as letters (read back in Russian), not boxes")
func cyrillicRenders() throws {
    let captioned = try Caption(text: "ПРИВЕТ МИР").apply(to: Image(width: 600, height: 10))
    let read = OCR.normalized(try OCR.read(captioned, language: "rus", background: RGBA8(r: 0, g: 0, b: 0), inverted: true))
    #expect(read.contains("ПРИВЕТ") && read.contains("МИР"), "read: \(read)")
    // Distinct letters draw distinct shapes (a missing-glyph box would be the same each time).
    let p = try Caption(text: "П").apply(to: Image(width: 200, height: 10))
    let zh = try Caption(text: "Ж").apply(to: Image(width: 200, height: 10))
    #expect(p.pixels != zh.pixels)
}

@Test("Characters no installed font has are refused by name; too long, empty or a missing font is refused")
func badCaptions() throws {
    let base = Image(width: 100, height: 100)
    #expect(throws: CaptionError.uncoveredCharacters(["\u{10FFFD}"])) { try Caption(text: "ok \u{10FFFD}").apply(to: base) }
    #expect(throws: CaptionError.tooLong(count: 201, maximum: 200)) {
        try Caption(text: String(repeating: "a", count: 201)).apply(to: base)
    }
    #expect(throws: CaptionError.empty) { try Caption(text: "  \n ").apply(to: base) }
    #expect(throws: CaptionError.fontUnavailable(path: "/no/such/font.ttf", reason: "no such readable file")) {
        try Caption(text: "hi", fontPath: "/no/such/font.ttf").apply(to: base)
    }
    let notAFont = FileManager.default.temporaryDirectory.appending(path: "not-a-font-\(UUID().uuidString).ttf")
    try Data("hello".utf8).write(to: notAFont)
    defer { try? FileManager.default.removeItem(at: notAFont) }
    #expect(throws: CaptionError.self) { try Caption(text: "hi", fontPath: notAFont.path).apply(to: base) }
    #expect(CaptionError.uncoveredCharacters(["\u{10FFFD}"]).description.contains("U+10FFFD"))
}

@Test("A character the caption's font lacks is drawn from a fallback font")
func fallbackFont() throws {
    // DejaVu Math TeX Gyre has Latin but no Cyrillic (fc-query: no 0400 block).
    let math = "/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf"
    guard FileManager.default.fileExists(atPath: math) else { return }
    let mixed = try Caption(text: "Ok Жук", fontPath: math).apply(to: Image(width: 300, height: 10))
    let latin = try Caption(text: "Ok", fontPath: math).apply(to: Image(width: 300, height: 10))
    #expect(mixed.height > 10 && mixed.pixels != latin.pixels)
}

@Test("The stroke contrasts with the letters: black behind light ones, white behind dark ones")
func strokeContrasts() {
    #expect(Caption(text: "a", color: RGBA8(r: 255, g: 255, b: 0)).strokeColor == RGBA8(r: 0, g: 0, b: 0))
    #expect(Caption(text: "a", color: RGBA8(r: 20, g: 20, b: 120)).strokeColor == RGBA8(r: 255, g: 255, b: 255))
}
