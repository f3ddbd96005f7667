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
    /// Photoshop swatches (`.aco`): version 1, then version 2 with names.
    case aco
    /// Procreate swatches (`.swatches`): a ZIP holding `Swatches.json`. No weights.
    case procreate
    /// Sketch Palettes plugin (`.sketchpalette`), JSON.
    case sketchpalette
    /// SCSS `$name: #RRGGBB;` variables.
    case scss
    /// A Tailwind CSS configuration with a `colors` object (`tailwind.config.js`).
    case tailwind

    public var fileExtension: String {
        switch self {
        case .text: "txt"
        case .json, .css, .gpl, .ase, .aco, .sketchpalette, .scss: rawValue
        case .procreate: "swatches"
        case .tailwind: "js"
        }
    }

    /// The media type to serve the format with.
    public var mediaType: String {
        switch self {
        case .ase, .aco: "application/octet-stream"
        case .procreate: "application/zip"
        case .json, .sketchpalette: "application/json"
        case .tailwind: "text/javascript; charset=utf-8"
        case .text, .css, .gpl, .scss: "text/plain; charset=utf-8"
        }
    }

    /// Whether the format keeps each colour's weight (read back, weights match to 0.05%).
    public var keepsWeights: Bool { self != .procreate }

    /// The scheme in this format. `name` titles the palette where the format has a title.
    public func encode(_ scheme: PhotoColorScheme, name: String = "Palette") -> Data {
        switch self {
        case .text: Data(TextPalette.encode(scheme).utf8)
        case .json: Data(JSONPalette.encode(scheme).utf8)
        case .css: Data(CSSPalette.encode(scheme, name: name).utf8)
        case .gpl: Data(GIMPPalette.encode(scheme, name: name).utf8)
        case .ase: AdobeSwatchExchange.encode(scheme, name: name)
        case .aco: PhotoshopSwatches.encode(scheme)
        case .procreate: ProcreateSwatches.encode(scheme, name: name)
        case .sketchpalette: SketchPalette.encode(scheme)
        case .scss: Data(SCSSPalette.encode(scheme, name: name).utf8)
        case .tailwind: Data(TailwindPalette.encode(scheme, name: name).utf8)
        }
    }

    /// Reads a palette written in this format back (colours and, to the format's precision, weights).
    public func decode(_ data: Data) throws(PaletteDecodingError) -> PhotoColorScheme {
        switch self {
        case .ase: try AdobeSwatchExchange.decode(data)
        case .aco: try PhotoshopSwatches.decode(data)
        case .procreate: try ProcreateSwatches.decode(data)
        case .sketchpalette: try SketchPalette.decode(data)
        case .text: try TextPalette.decode(try Self.text(data))
        case .json: try JSONPalette.decode(try Self.text(data))
        case .css: try CSSPalette.decode(try Self.text(data))
        case .gpl: try GIMPPalette.decode(try Self.text(data))
        case .scss: try SCSSPalette.decode(try Self.text(data))
        case .tailwind: try TailwindPalette.decode(try Self.text(data))
        }
    }

    private static func text(_ data: Data) throws(PaletteDecodingError) -> String {
        guard let text = String(data: data, encoding: .utf8) else { throw .malformed("not UTF-8 text") }
        return text
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
