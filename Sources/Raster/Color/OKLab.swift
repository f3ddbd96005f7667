import Foundation

/// A colour in Björn Ottosson's OKLab space: perceptually uniform enough that Euclidean distance
/// tracks visible difference, and cheap (two 3×3 matrices and a cube root).
/// `L` is lightness 0…1; `a`, `b` are roughly −0.4…0.4.
public struct OKLab: Sendable, Hashable {
    public var L: Float
    public var a: Float
    public var b: Float

    public init(L: Float, a: Float, b: Float) {
        self.L = L; self.a = a; self.b = b
    }

    /// The OKLab coordinates of linear-light sRGB (0…1 per channel).
    @inlinable public init(linearRed r: Float, green g: Float, blue b: Float) {
        let l = cbrtf(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b)
        let m = cbrtf(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b)
        let s = cbrtf(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b)
        self.L = 0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s
        self.a = 1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s
        self.b = 0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s
    }

    /// The OKLab coordinates of an 8-bit sRGB colour.
    @inlinable public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.init(linearRed: SRGB.toLinear(red), green: SRGB.toLinear(green), blue: SRGB.toLinear(blue))
    }

    /// Linear-light sRGB; components may fall outside 0…1 for colours outside the sRGB gamut.
    public var linearRGB: (red: Double, green: Double, blue: Double) {
        let L = Double(self.L), a = Double(self.a), b = Double(self.b)
        let l = pow3(L + 0.3963377774 * a + 0.2158037573 * b)
        let m = pow3(L - 0.1055613458 * a - 0.0638541728 * b)
        let s = pow3(L - 0.0894841775 * a - 1.2914855480 * b)
        return (4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
                -1.2684380046 * l + 2.6097574011 * m - 0.3413193470 * s,
                -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)
    }

    /// The nearest 8-bit sRGB colour (out-of-gamut channels are clamped).
    public var rgb8: RGBA8 {
        let rgb = linearRGB
        return RGBA8(r: SRGB.encode8(rgb.red), g: SRGB.encode8(rgb.green), b: SRGB.encode8(rgb.blue))
    }

    /// Euclidean distance in OKLab (×100 is roughly comparable to CIELAB ΔE units).
    @inlinable public func distance(to other: OKLab) -> Float {
        let dL = L - other.L, da = a - other.a, db = b - other.b
        return (dL * dL + da * da + db * db).squareRoot()
    }
}

@inline(__always) private func pow3(_ x: Double) -> Double { x * x * x }
