import Foundation

/// Procreate swatches (`.swatches`): a ZIP holding `Swatches.json`, one palette of HSB colours:
///
///     [{"name":"Sunset","swatches":[{"hue":0.99,"saturation":0.75,"brightness":0.9,"alpha":1,"colorSpace":0}]}]
///
/// Procreate keeps no per-colour names or weights: read back, the colours share the weight equally.
enum ProcreateSwatches {
    static let entryName = "Swatches.json"

    private struct Palette: Codable {
        struct Swatch: Codable {
            var hue, saturation, brightness, alpha: Double
            var colorSpace: Int
        }
        var name: String
        var swatches: [Swatch]
    }

    static func encode(_ scheme: PhotoColorScheme, name: String) -> Data {
        let swatches = scheme.colors.map { color in
            let (h, s, v) = hsb(color)
            return Palette.Swatch(hue: h, saturation: s, brightness: v, alpha: 1, colorSpace: 0)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode([Palette(name: name, swatches: swatches)])) ?? Data("[]".utf8)
        return StoredZIP.archive(json, named: entryName)
    }

    static func decode(_ data: Data) throws(PaletteDecodingError) -> PhotoColorScheme {
        let json = try ZIPReader.file(entryName, in: data)
        let palettes: [Palette]
        do { palettes = try JSONDecoder().decode([Palette].self, from: json) } catch {
            throw .malformed("\(entryName) is not a Procreate palette: \(error)")
        }
        let swatches = palettes.first?.swatches ?? []
        let share = swatches.isEmpty ? 0 : 1 / Double(swatches.count)
        return PhotoColorScheme(colors: swatches.map { swatch in
            let (r, g, b) = rgb(hue: swatch.hue, saturation: swatch.saturation, brightness: swatch.brightness)
            return PaletteColor(red: r, green: g, blue: b, weight: share)
        })
    }

    /// Hue, saturation and brightness (HSV), each 0…1.
    static func hsb(_ color: PaletteColor) -> (Double, Double, Double) {
        let (r, g, b) = (Double(color.red) / 255, Double(color.green) / 255, Double(color.blue) / 255)
        let high = max(r, g, b), low = min(r, g, b), span = high - low
        guard span > 0 else { return (0, 0, high) }
        var hue = high == r ? (g - b) / span : high == g ? 2 + (b - r) / span : 4 + (r - g) / span
        hue /= 6
        if hue < 0 { hue += 1 }
        return (hue, span / high, high)
    }

    static func rgb(hue: Double, saturation: Double, brightness: Double) -> (UInt8, UInt8, UInt8) {
        let h = (hue - hue.rounded(.down)) * 6, s = min(max(saturation, 0), 1), v = min(max(brightness, 0), 1)
        let sector = min(Int(h), 5), f = h - Double(sector)
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b) = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][sector]
        func byte(_ x: Double) -> UInt8 { UInt8((x * 255).rounded()) }
        return (byte(r), byte(g), byte(b))
    }
}
