import Foundation

/// CSS custom properties, `--palette-1` heaviest, each with its share in a comment:
///
///     :root {
///       --palette-1: #E63946; /* 50.0% */
///     }
enum CSSPalette {
    static func encode(_ scheme: PhotoColorScheme, name: String) -> String {
        let tenths = PaletteText.roundedWeights(scheme.colors, units: 1000)
        let title = name.replacingOccurrences(of: "*/", with: "* /")
        var css = "/* \(title): colours by share of the picture */\n:root {\n"
        for (index, (color, share)) in zip(scheme.colors, tenths).enumerated() {
            css += "  --palette-\(index + 1): \(color.hex); /* \(PaletteText.percent(tenths: share)) */\n"
        }
        return css + "}\n"
    }

    /// Reads the `--palette-N: #RRGGBB; /* 42.0% */` declarations, in N order.
    static func decode(_ text: String) throws(PaletteDecodingError) -> PhotoColorScheme {
        var numbered: [(Int, PaletteColor)] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("--palette-") else { continue }
            let parts = trimmed.dropFirst("--palette-".count).split(separator: " ")
            guard parts.count >= 2, parts[0].hasSuffix(":"), let number = Int(parts[0].dropLast()),
                  parts[1].hasSuffix(";") else { throw .malformed("“\(trimmed)” is not --palette-N: #RRGGBB;") }
            var weight = 0.0
            if parts.count >= 4, parts[2] == "/*" { weight = PaletteText.weight(percent: parts[3]) ?? 0 }
            guard let color = PaletteText.color(hex: parts[1].dropLast(), weight: weight) else {
                throw .malformed("“\(parts[1])” is not #RRGGBB;")
            }
            numbered.append((number, color))
        }
        return PhotoColorScheme(colors: numbered.sorted { $0.0 < $1.0 }.map(\.1))
    }
}
