/// The WCAG 2.x contrast matrix of a scheme's colours, as `stickers palette --contrast` prints it:
/// one row and one column per colour, each cell the ratio and the highest level it reaches.
public enum ContrastTable {
    public static func text(_ scheme: PhotoColorScheme) -> String {
        let colors = scheme.colors
        var out = "WCAG 2.x contrast: AAA ≥ 7, AA ≥ 4.5, AA18 ≥ 3 (large text only), - below 3\n"
        var lines = ["       " + colors.map { "  " + $0.hex + "  " }.joined()]
        for row in colors {
            var line = row.hex
            for column in colors {
                let ratio = row.contrastRatio(with: column)
                let level = ContrastLevel(ratio: ratio).rawValue
                let number = PaletteText.ratio(ratio)
                let cell = String(repeating: " ", count: max(0, 5 - number.count)) + number + " " + level
                line += "  " + cell + String(repeating: " ", count: max(0, 9 - cell.count))
            }
            lines.append(line)
        }
        for line in lines {
            out += String(line.reversed().drop { $0 == " " }.reversed()) + "\n"
        }
        return out
    }
}
