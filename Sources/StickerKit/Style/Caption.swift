import Foundation
import Raster

/// Meme-style text on a sticker: bold letters of `color` in a contrasting stroke, sized to the
/// sticker, wrapped onto lines, in a band of their own above or below the subject. The canvas
/// grows to hold the text with a margin, so no letter is clipped, and the margin is a fraction of
/// the sticker, so it survives the messaging apps' fitting onto a 512 px canvas.
///
/// Rendered by FreeType (`CaptionRenderer`) from the styled sticker alone: a caption never runs
/// the network again.
public struct Caption: Sendable, Hashable {
    public enum Position: String, Sendable, Hashable, CaseIterable, Codable {
        case top, bottom
    }

    public var text: String
    public var position: Position
    /// The letters' colour; the stroke is black or white, whichever contrasts more.
    public var color: RGBA8
    /// A TrueType/OpenType font file; nil: DejaVu Sans Bold, else the first installed fallback.
    public var fontPath: String?

    /// Longer captions are refused: they cannot be legible on a 512 px sticker.
    public static let maximumLength = 200
    /// The default font (Debian's fonts-dejavu-core; covers Latin, Greek and Cyrillic).
    public static let defaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    /// Fonts tried, in order, for characters the caption's font does not cover (and in place of a
    /// missing default font); those not installed are skipped.
    public static let fallbackFontPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
        "/usr/share/fonts/truetype/noto/NotoSans-Bold.ttf",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
        "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf",
    ]

    public init(text: String, position: Position = .bottom, color: RGBA8 = RGBA8(r: 255, g: 255, b: 255),
                fontPath: String? = nil) {
        self.text = text
        self.position = position
        self.color = color
        self.fontPath = fontPath
    }

    /// The text as drawn: canonically composed (an accent typed as a combining mark becomes the
    /// accented letter the font has), runs of spaces and tabs as one, ends trimmed.
    var normalizedText: String {
        let composed = text.precomposedStringWithCanonicalMapping
        let lines = composed.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
        }
        return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What can be checked without drawing: some text, not too long, the font file there.
    public func validate() throws(CaptionError) {
        let text = normalizedText
        guard !text.isEmpty else { throw .empty }
        guard text.count <= Self.maximumLength else { throw .tooLong(count: text.count, maximum: Self.maximumLength) }
        if let fontPath, !FileManager.default.isReadableFile(atPath: fontPath) {
            throw .fontUnavailable(path: fontPath, reason: "no such readable file")
        }
    }

    /// `sticker` (a styled sticker, straight alpha) with this caption: a larger canvas, the sticker
    /// centred in it, the text above or below.
    public func apply(to sticker: Image) throws(CaptionError) -> Image {
        try validate()
        return try CaptionRenderer(caption: self).render(on: sticker)
    }

    /// The stroke colour: black behind light letters, white behind dark ones (relative luminance).
    var strokeColor: RGBA8 {
        func linear(_ c: UInt8) -> Double {
            let v = Double(c) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        let luminance = 0.2126 * linear(color.r) + 0.7152 * linear(color.g) + 0.0722 * linear(color.b)
        return luminance > 0.18 ? RGBA8(r: 0, g: 0, b: 0) : RGBA8(r: 255, g: 255, b: 255)
    }
}

/// Why a caption cannot be drawn. Every case is the caller's to fix (a usage error), except
/// `noFontInstalled`, a missing resource.
public enum CaptionError: Error, Sendable, Equatable, CustomStringConvertible {
    case empty
    case tooLong(count: Int, maximum: Int)
    /// The font file given cannot be read or is not a font FreeType opens.
    case fontUnavailable(path: String, reason: String)
    /// Neither the default font nor any fallback is installed.
    case noFontInstalled
    /// No installed font has these characters.
    case uncoveredCharacters([String])

    public var description: String {
        switch self {
        case .empty: "the caption is empty"
        case .tooLong(let count, let maximum):
            "the caption has \(count) characters; at most \(maximum) fit legibly on a sticker"
        case .fontUnavailable(let path, let reason): "cannot use the font \(path): \(reason)"
        case .noFontInstalled:
            "no font for captions is installed (Debian: apt-get install fonts-dejavu-core), or give one with --font"
        case .uncoveredCharacters(let characters):
            "no installed font has the character\(characters.count == 1 ? "" : "s") "
                + characters.map { "'\($0)' (U+\(String($0.unicodeScalars.first!.value, radix: 16, uppercase: true)))" }
                    .joined(separator: ", ")
        }
    }

    /// Whether the caller asked for something impossible (rather than a resource being missing).
    public var isUsageError: Bool {
        if case .noFontInstalled = self { return false }
        return true
    }
}
