import Raster

/// WCAG 2.x contrast (Success Criteria 1.4.3 and 1.4.6): ratios of relative luminance.
extension PaletteColor {
    public static let white = PaletteColor(red: 255, green: 255, blue: 255, weight: 0)
    public static let black = PaletteColor(red: 0, green: 0, blue: 0, weight: 0)

    /// WCAG 2.x relative luminance: 0.2126 R + 0.7152 G + 0.0722 B of the linearised channels.
    /// (WCAG's 0.03928 linearisation threshold and sRGB's 0.04045 select the same 8-bit codes.)
    public var relativeLuminance: Double {
        0.2126 * Double(SRGB.toLinear(Double(red) / 255)) + 0.7152 * Double(SRGB.toLinear(Double(green) / 255))
            + 0.0722 * Double(SRGB.toLinear(Double(blue) / 255))
    }

    /// (L_lighter + 0.05) / (L_darker + 0.05), 1…21; symmetric.
    public func contrastRatio(with other: PaletteColor) -> Double {
        let (a, b) = (relativeLuminance, other.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// Black or white, whichever contrasts more with this colour (black on a tie).
    public var textColor: PaletteColor {
        contrastRatio(with: .black) >= contrastRatio(with: .white) ? .black : .white
    }
}

/// The WCAG 2.x levels a contrast ratio reaches, for normal and large text.
public enum ContrastLevel: String, Sendable, CaseIterable {
    /// 7:1 — enhanced, normal text (1.4.6).
    case aaa = "AAA"
    /// 4.5:1 — minimum, normal text (1.4.3); enhanced for large text.
    case aa = "AA"
    /// 3:1 — minimum for large text only (18 pt, or 14 pt bold).
    case aaLarge = "AA18"
    /// Below 3:1.
    case fail = "-"

    /// The highest level `ratio` reaches. Not rounded first: 4.499:1 does not pass 4.5:1.
    public init(ratio: Double) {
        self = ratio >= 7 ? .aaa : ratio >= 4.5 ? .aa : ratio >= 3 ? .aaLarge : .fail
    }
}
