/// A GIMP palette (`.gpl`): a header, then `R G B<TAB>name` per colour; the name is the colour's
/// hex and share so the weights survive a trip through GIMP or Inkscape.
enum GIMPPalette {
    static func encode(_ scheme: PhotoColorScheme, name: String) -> String {
        let tenths = PaletteText.roundedWeights(scheme.colors, units: 1000)
        let title = name.split(whereSeparator: \.isNewline).joined(separator: " ")
        var gpl = "GIMP Palette\nName: \(title)\nColumns: \(max(1, scheme.colors.count))\n#\n"
        for (color, share) in zip(scheme.colors, tenths) {
            let channels = [color.red, color.green, color.blue].map { value in
                let digits = String(value)
                return String(repeating: " ", count: 3 - digits.count) + digits
            }
            gpl += channels.joined(separator: " ") + "\t\(color.hex) \(PaletteText.percent(tenths: share))\n"
        }
        return gpl
    }

    static func decode(_ text: String) throws(PaletteDecodingError) -> PhotoColorScheme {
        let lines = text.split(separator: "\n")
        guard lines.first == "GIMP Palette" else { throw .malformed("no “GIMP Palette” header") }
        var colors: [PaletteColor] = []
        for line in lines.dropFirst() {
            if line.hasPrefix("#") || line.hasPrefix("Name:") || line.hasPrefix("Columns:") || line.isEmpty { continue }
            // Empty halves kept: a line of only a tab still has a (blank) first half.
            let halves = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
            let channels = halves[0].split(separator: " ").compactMap { UInt8($0) }
            guard channels.count == 3 else { throw .malformed("“\(line)” is not R G B") }
            let nameFields = halves.count > 1 ? halves[1].split(separator: " ") : []
            let weight = nameFields.count > 1 ? PaletteText.weight(percent: nameFields[1]) ?? 0 : 0
            colors.append(PaletteColor(red: channels[0], green: channels[1], blue: channels[2], weight: weight))
        }
        return PhotoColorScheme(colors: colors)
    }
}
