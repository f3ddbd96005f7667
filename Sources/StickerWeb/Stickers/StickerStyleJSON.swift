import Foundation
import Hummingbird
import Raster
import StickerKit

/// A sticker's style as the page shows and sends it (`PUT /api/stickers/photos/:id/style`):
///
///     {"outline": 12, "outlineColor": "#FF3366", "shadow": true, "effect": "comic"}
///
/// `outline` is pixels, 0 for none, absent or null for the default (2 % of the subject's smaller
/// side); `effect` is `comic`, `puffy` or null. Absent fields take the defaults.
struct StickerStyleJSON: Codable, Sendable, Equatable, JSONRequestBody {
    var outline: Int?
    var outlineColor: String?
    var shadow: Bool?
    var effect: StickerStyle.Effect?

    init(_ style: StickerStyle) {
        outline = style.outlined ? style.outlineWidth : 0
        outlineColor = style.outlineColor.hex
        shadow = style.shadow != nil
        effect = style.effect
    }

    /// The style asked for; a width out of 0…100 or a colour that is not hex is refused (422).
    func style() throws(WebError) -> StickerStyle {
        var style = StickerStyle(outlineWidth: outline, outlined: outline != 0,
                                 shadow: shadow == true ? StickerStyle.Shadow() : nil, effect: effect)
        if let outline, !StickerStyle.outlineWidths.contains(outline) {
            throw .unprocessable("the outline must be between \(StickerStyle.outlineWidths.lowerBound) and "
                                 + "\(StickerStyle.outlineWidths.upperBound) pixels, not \(outline)")
        }
        if let outlineColor {
            guard let color = RGBA8(hex: outlineColor) else {
                throw .unprocessable("the outline colour must be hex such as #FFFFFF, not '\(outlineColor)'")
            }
            style.outlineColor = color
        }
        return style
    }

    /// The JSON body of `request` (at most 4 KB).
    static func decode(_ request: Request) async throws(WebError) -> StickerStyleJSON {
        try await decode(request, tooLarge: "a style is a few fields of JSON, at most 4 KB", expected: "the style is not the JSON expected")
    }
}
