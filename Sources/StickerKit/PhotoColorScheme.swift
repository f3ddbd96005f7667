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
