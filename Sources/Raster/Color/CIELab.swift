import Foundation

/// A colour in CIE 1976 L*a*b* (D65 white, the sRGB primaries), the space CIEDE2000 is defined in.
public struct CIELab: Sendable, Hashable {
    public var L: Double
    public var a: Double
    public var b: Double

    public init(L: Double, a: Double, b: Double) {
        self.L = L; self.a = a; self.b = b
    }

    /// The L*a*b* coordinates of an 8-bit sRGB colour.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        let r = SRGB.toLinear(Double(red) / 255)
        let g = SRGB.toLinear(Double(green) / 255)
        let b = SRGB.toLinear(Double(blue) / 255)
        // sRGB → XYZ (D65), normalised by the D65 white point.
        let x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
        let y = (0.2126729 * r + 0.7151522 * g + 0.0721750 * b) / 1.0
        let z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883
        let fx = Self.f(x), fy = Self.f(y), fz = Self.f(z)
        self.L = 116 * fy - 16
        self.a = 500 * (fx - fy)
        self.b = 200 * (fy - fz)
    }

    private static func f(_ t: Double) -> Double {
        let delta = 6.0 / 29.0
        return t > delta * delta * delta ? cbrt(t) : t / (3 * delta * delta) + 4.0 / 29.0
    }
}
