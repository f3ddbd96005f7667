/// One `#RRGGBB  42.0%` per line, heaviest first; percentages sum to exactly 100.0.
enum TextPalette {
    static func encode(_ scheme: PhotoColorScheme) -> String {
        let tenths = PaletteText.roundedWeights(scheme.colors, units: 1000)
        return zip(scheme.colors, tenths).map { "\($0.hex)  \(PaletteText.percent(tenths: $1))\n" }.joined()
    }

    static func decode(_ text: String) throws(PaletteDecodingError) -> PhotoColorScheme {
        var colors: [PaletteColor] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            let fields = line.split(separator: " ")
            guard fields.count == 2, let weight = PaletteText.weight(percent: fields[1]),
                  let color = PaletteText.color(hex: fields[0], weight: weight) else {
                throw .malformed("line \(number + 1) is not “#RRGGBB  42.0%”")
            }
            colors.append(color)
        }
        return PhotoColorScheme(colors: colors)
    }
}
