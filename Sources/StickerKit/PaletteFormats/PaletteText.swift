/// Text helpers shared by the palette writers and readers.
enum PaletteText {
    /// The writers' name for `PhotoColorScheme.roundedWeights(units:)` (the one rounding).
    static func roundedWeights(_ colors: [PaletteColor], units: Int) -> [Int] {
        PhotoColorScheme(colors: colors).roundedWeights(units: units)
    }

    /// `units` (tenths of a percent) as `42.0%`.
    static func percent(tenths: Int) -> String { "\(tenths / 10).\(tenths % 10)%" }

    /// A decimal with `digits` fractional digits, trailing zeros dropped: 4200 → "0.42".
    static func decimal(_ value: Int, digits: Int) -> String {
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        var fraction = String(value % scale)
        fraction = String(repeating: "0", count: digits - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(value / scale)" + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// A contrast ratio with exactly two decimals, rounded: 4.4784 → "4.48".
    static func ratio(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = String(hundredths % 100)
        return "\(hundredths / 100)." + String(repeating: "0", count: 2 - fraction.count) + fraction
    }

    /// `#RRGGBB` (either case) as a colour with the given weight.
    static func color(hex: some StringProtocol, weight: Double) -> PaletteColor? {
        let digits = hex.hasPrefix("#") ? hex.dropFirst() : hex[...]
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        return PaletteColor(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF),
                            blue: UInt8(value & 0xFF), weight: weight)
    }

    /// `42.0%` as 0.42; nil for anything else, including "inf%" and "nan%" (Double parses both, and
    /// an infinite weight traps the writers' rounding) and negative shares.
    static func weight(percent: some StringProtocol) -> Double? {
        guard percent.hasSuffix("%"), let value = Double(percent.dropLast()), value.isFinite, value >= 0 else { return nil }
        return value / 100
    }
}
