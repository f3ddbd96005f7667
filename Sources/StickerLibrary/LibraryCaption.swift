import Raster
import StickerKit

/// A caption as the library stores it (JSON in `result.caption`) and as a variant's canonical
/// encoding spells it: the text, where it goes and its colour. The font is the default one (a
/// caption made in the web app never names a font file).
public struct LibraryCaption: Codable, Sendable, Hashable {
    public var text: String
    public var position: Caption.Position
    /// `#RRGGBB`.
    public var color: String

    public init(_ caption: Caption) {
        text = caption.text
        position = caption.position
        color = caption.color.hex
    }

    /// The engine's caption; a colour that is not hex (a hand-edited row) falls back to white.
    public var caption: Caption {
        Caption(text: text, position: position, color: RGBA8(hex: color) ?? RGBA8(r: 255, g: 255, b: 255))
    }
}
