import Foundation

/// The sRGB transfer function (IEC 61966-2-1): 8-bit or 0…1 encoded values ↔ linear light.
public enum SRGB {
    /// Linear light of each 8-bit code, so hot loops convert pixels with a table look-up.
    public static let linearTable: [Float] = (0..<256).map { Float(toLinear(Double($0) / 255)) }

    /// Linear light (0…1) of an encoded value (0…1).
    @inlinable public static func toLinear(_ encoded: Double) -> Double {
        encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4)
    }

    /// Encoded value (0…1) of linear light (0…1).
    @inlinable public static func fromLinear(_ linear: Double) -> Double {
        linear <= 0.0031308 ? linear * 12.92 : 1.055 * pow(linear, 1 / 2.4) - 0.055
    }

    /// Linear light of an 8-bit code.
    @inlinable public static func toLinear(_ code: UInt8) -> Float { linearTable[Int(code)] }

    /// The nearest 8-bit code of linear light, clamped to the gamut.
    @inlinable public static func encode8(_ linear: Double) -> UInt8 {
        let encoded = fromLinear(min(max(linear, 0), 1))
        return UInt8((encoded * 255).rounded())
    }
}
