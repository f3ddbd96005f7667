import Raster
import StickerKit

/// A sticker style as the library stores it (JSON in `result.style`): every field of
/// `StickerStyle`, spelled out here so the stored form stays readable when the engine's type
/// changes shape.
public struct LibraryStyle: Codable, Sendable, Hashable {
    public struct Shadow: Codable, Sendable, Hashable {
        public var blurFraction: Double
        public var offsetFraction: Double
        public var opacity: Float
    }

    public var outlineWidth: Int?
    public var outlineFraction: Double
    public var outlined: Bool
    /// `#RRGGBB` (outlines are opaque).
    public var outlineColor: String
    public var shadow: Shadow?
    public var padding: Int
    public var effect: StickerStyle.Effect?

    public init(_ style: StickerStyle) {
        outlineWidth = style.outlineWidth
        outlineFraction = style.outlineFraction
        outlined = style.outlined
        outlineColor = style.outlineColor.hex
        shadow = style.shadow.map { Shadow(blurFraction: $0.blurFraction, offsetFraction: $0.offsetFraction, opacity: $0.opacity) }
        padding = style.padding
        effect = style.effect
    }

    /// The engine's style; a colour that is not hex (a hand-edited row) falls back to white.
    public var style: StickerStyle {
        var style = StickerStyle(outlineWidth: outlineWidth, outlined: outlined, effect: effect)
        style.outlineFraction = outlineFraction
        style.outlineColor = RGBA8(hex: outlineColor) ?? RGBA8(r: 255, g: 255, b: 255)
        style.shadow = shadow.map { stored in
            var shadow = StickerStyle.Shadow()
            shadow.blurFraction = stored.blurFraction
            shadow.offsetFraction = stored.offsetFraction
            shadow.opacity = stored.opacity
            return shadow
        }
        style.padding = padding
        return style
    }
}
