import Raster

extension RGBA8 {
    /// An opaque colour from CSS-style hex: `#RRGGBB` or `#RGB`, the `#` optional, either case.
    /// Nil for anything else (the fronts report it as a usage error).
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 3 || digits.count == 6, digits.allSatisfy(\.isHexDigit),
              let value = UInt32(digits, radix: 16) else { return nil }
        if digits.count == 3 {
            // #RGB is #RRGGBB with each digit doubled.
            let r = UInt8((value >> 8) & 0xF), g = UInt8((value >> 4) & 0xF), b = UInt8(value & 0xF)
            self.init(r: r * 17, g: g * 17, b: b * 17)
        } else {
            self.init(r: UInt8((value >> 16) & 0xFF), g: UInt8((value >> 8) & 0xFF), b: UInt8(value & 0xFF))
        }
    }

    /// `#RRGGBB`, upper-case (alpha left out).
    public var hex: String {
        let digits = Array("0123456789ABCDEF")
        var s = "#"
        for c in [r, g, b] { s.append(digits[Int(c >> 4)]); s.append(digits[Int(c & 0xF)]) }
        return s
    }
}
