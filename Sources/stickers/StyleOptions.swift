import ArgumentParser
import Raster
import StickerKit

/// The sticker style options `sticker` and `make` share: outline width and colour, shadow, effect.
struct StyleOptions: ParsableArguments {
    @Option(help: "Outline width in pixels, 0…100 (default: 2% of the subject's smaller side).")
    var outline: Int?

    @Flag(help: "No outline: the bare cut-out.")
    var noOutline = false

    @Option(help: ArgumentHelp("Outline colour as hex (default: #FFFFFF).", valueName: "hex"))
    var outlineColor: String?

    @Flag(help: "A soft drop shadow under the sticker.")
    var shadow = false

    @Option(help: ArgumentHelp("A look: comic (flat tones, ink line) or puffy (inflated, glossy).", valueName: "effect"))
    var effect: StickerStyle.Effect?

    func validate() throws {
        if let outline, !StickerStyle.outlineWidths.contains(outline) {
            throw ValidationError("--outline must be between \(StickerStyle.outlineWidths.lowerBound) and "
                                  + "\(StickerStyle.outlineWidths.upperBound) pixels, not \(outline)")
        }
        if outline != nil && noOutline { throw ValidationError("--outline and --no-outline exclude each other") }
        if let outlineColor, RGBA8(hex: outlineColor) == nil {
            throw ValidationError("--outline-color must be a hex colour such as #FFFFFF or #FFF, not '\(outlineColor)'")
        }
    }

    /// The style asked for (validated first, so the colour parses).
    var style: StickerStyle {
        var style = StickerStyle(outlineWidth: outline, outlined: !noOutline && outline != 0,
                                 shadow: shadow ? StickerStyle.Shadow() : nil, effect: effect)
        if let outlineColor, let color = RGBA8(hex: outlineColor) { style.outlineColor = color }
        return style
    }
}

extension StickerStyle.Effect: ExpressibleByArgument {}
