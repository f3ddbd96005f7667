/// One colour of a scheme: its sRGB value and the fraction of the (subject's) pixels it stands for.
public struct PaletteColor: Sendable, Hashable, Codable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8
    /// Fraction of the pixels nearest this colour, 0…1; a scheme's weights sum to 1.
    public var weight: Double

    public init(red: UInt8, green: UInt8, blue: UInt8, weight: Double) {
        self.red = red; self.green = green; self.blue = blue; self.weight = weight
    }

    /// `#RRGGBB`, upper-case.
    public var hex: String {
        let digits = Array("0123456789ABCDEF")
        var s = "#"
        for c in [red, green, blue] { s.append(digits[Int(c >> 4)]); s.append(digits[Int(c & 0xF)]) }
        return s
    }
}

/// The dominant colours of a photo, sorted by weight, heaviest first.
public struct PhotoColorScheme: Sendable, Hashable, Codable {
    public var colors: [PaletteColor]
    public init(colors: [PaletteColor]) { self.colors = colors }
}

extension PhotoColorScheme {
    /// The weights rounded to `1/units` so that the rounded values still sum to exactly `units`
    /// (largest remainder), e.g. 1/2, 1/3, 1/6 at 1000 units give 500, 333, 167, not 500, 333, 166.
    /// The one weight rounding: every palette file, the pack's palettes.json and the web app's
    /// JSON show weights that add up to exactly 1 (or 100 %).
    public func roundedWeights(units: Int) -> [Int] {
        let total = colors.reduce(0) { $0 + max($1.weight, 0) }
        guard total > 0 else { return colors.map { _ in 0 } }
        let exact = colors.map { max($0.weight, 0) / total * Double(units) }
        var rounded = exact.map { Int($0.rounded(.down)) }
        let order = exact.indices.sorted { (exact[$0] - Double(rounded[$0]), $1) > (exact[$1] - Double(rounded[$1]), $0) }
        for i in order.prefix(units - rounded.reduce(0, +)) { rounded[i] += 1 }
        return rounded
    }

    /// The weights to four decimals summing to exactly 1, as `palette --format json` writes them.
    public var jsonWeights: [Double] {
        roundedWeights(units: 10_000).map { Double($0) / 10_000 }
    }
}
