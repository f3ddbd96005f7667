import Foundation

/// SCSS variables named after the colours, heaviest first, each with its share:
///
///     // Sunset: colours by share of the picture
///     $tomato: #E63946; // 50.0%
enum SCSSPalette {
    static func encode(_ scheme: PhotoColorScheme, name: String) -> String {
        let tenths = PaletteText.roundedWeights(scheme.colors, units: 1000)
        var scss = "// \(PaletteText.oneLine(name)): colours by share of the picture\n"
        for ((color, identifier), share) in zip(zip(scheme.colors, PaletteNames.identifiers(scheme.colors)), tenths) {
            scss += "$\(identifier): \(color.hex); // \(PaletteText.percent(tenths: share))\n"
        }
        return scss
    }

    static func decode(_ text: String) throws(PaletteDecodingError) -> PhotoColorScheme {
        try PaletteText.colorLines(text, where: { $0.hasPrefix("$") })
    }
}

/// A Tailwind CSS configuration whose `colors` are the palette's, keyed by colour name:
///
///     module.exports = {
///       theme: { extend: { colors: {
///         'tomato': '#E63946', // 50.0%
///       } } },
///     };
enum TailwindPalette {
    static func encode(_ scheme: PhotoColorScheme, name: String) -> String {
        let tenths = PaletteText.roundedWeights(scheme.colors, units: 1000)
        var js = "// \(PaletteText.oneLine(name)): colours by share of the picture (tailwind.config.js)\n"
        js += "module.exports = {\n  theme: {\n    extend: {\n      colors: {\n"
        for ((color, identifier), share) in zip(zip(scheme.colors, PaletteNames.identifiers(scheme.colors)), tenths) {
            js += "        '\(identifier)': '\(color.hex)', // \(PaletteText.percent(tenths: share))\n"
        }
        return js + "      },\n    },\n  },\n};\n"
    }

    static func decode(_ text: String) throws(PaletteDecodingError) -> PhotoColorScheme {
        guard text.contains("colors: {") else { throw .malformed("no Tailwind “colors” object") }
        return try PaletteText.colorLines(text, where: { $0.hasPrefix("'") })
    }
}

extension PaletteText {
    /// A title on one line, without the characters that would end a comment.
    static func oneLine(_ name: String) -> String {
        name.split(whereSeparator: \.isNewline).joined(separator: " ").replacingOccurrences(of: "*/", with: "* /")
    }

    /// The colours of `KEY: #RRGGBB; // 42.0%`-shaped lines (SCSS and Tailwind), in order.
    static func colorLines(_ text: String, where isColorLine: (Substring) -> Bool) throws(PaletteDecodingError) -> PhotoColorScheme {
        var colors: [PaletteColor] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            guard isColorLine(trimmed) else { continue }
            guard let hashIndex = trimmed.firstIndex(of: "#") else { throw .malformed("“\(trimmed)” has no #RRGGBB") }
            let hex = trimmed[hashIndex...].prefix(7)
            let weight = trimmed.split(separator: "//").last.flatMap { PaletteText.weight(percent: $0.trimmingCharacters(in: .whitespaces)) } ?? 0
            guard let color = PaletteText.color(hex: hex, weight: weight) else { throw .malformed("“\(hex)” is not #RRGGBB") }
            colors.append(color)
        }
        return PhotoColorScheme(colors: colors)
    }
}
