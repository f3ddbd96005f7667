import Foundation

/// The file formats a colour scheme can be exported in. Stable: people script them.
public enum PaletteFormat: String, CaseIterable, Sendable, Hashable {
    /// One `#RRGGBB  42.0%` per line.
    case text
    /// `{"colors":[{"hex":"#RRGGBB","weight":0.42}]}`.
    case json
    /// CSS custom properties on `:root`.
    case css
    /// GIMP palette (`.gpl`).
    case gpl
    /// Adobe Swatch Exchange (`.ase`), binary, big-endian.
    case ase

    public var fileExtension: String {
        switch self {
        case .text: "txt"
        case .json, .css, .gpl, .ase: rawValue
        }
    }

    /// The scheme in this format. `name` titles the palette where the format has a title.
    public func encode(_ scheme: PhotoColorScheme, name: String = "Palette") -> Data {
        switch self {
        case .text: Data(TextPalette.encode(scheme).utf8)
        case .json: Data(JSONPalette.encode(scheme).utf8)
        case .css: Data(CSSPalette.encode(scheme, name: name).utf8)
        case .gpl: Data(GIMPPalette.encode(scheme, name: name).utf8)
        case .ase: AdobeSwatchExchange.encode(scheme, name: name)
        }
    }

    /// Reads a palette written in this format back (colours and, to the format's precision, weights).
    public func decode(_ data: Data) throws(PaletteDecodingError) -> PhotoColorScheme {
        if self == .ase { return try AdobeSwatchExchange.decode(data) }
        guard let text = String(data: data, encoding: .utf8) else { throw .malformed("not UTF-8 text") }
        switch self {
        case .text: return try TextPalette.decode(text)
        case .json: return try JSONPalette.decode(text)
        case .css: return try CSSPalette.decode(text)
        case .gpl: return try GIMPPalette.decode(text)
        case .ase: return try AdobeSwatchExchange.decode(data)
        }
    }
}

/// Why a palette file could not be read.
public enum PaletteDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed palette: \(reason)"
        }
    }
}
