import Foundation

/// Sketch Palettes plugin files (`.sketchpalette`), format 2.0: JSON with each colour's channels
/// in 0…1 and a name, the colour's name and share ("tomato 50.0%") so the weights survive:
///
///     {"colors":[{"alpha":1,"blue":0.27,"green":0.22,"name":"tomato 50.0%","red":0.9}],
///      "compatibleVersion":"2.0","gradients":[],"images":[],"pluginVersion":"2.22"}
enum SketchPalette {
    private struct File: Codable {
        struct Color: Codable {
            var name: String?
            var red, green, blue: Double
            var alpha: Double?
        }
        var compatibleVersion: String
        var pluginVersion: String
        var colors: [Color]
        var gradients: [String]?
        var images: [String]?
    }

    static func encode(_ scheme: PhotoColorScheme) -> Data {
        let tenths = PaletteText.roundedWeights(scheme.colors, units: 1000)
        let colors = zip(zip(scheme.colors, PaletteNames.names(scheme.colors)), tenths).map { pair, share in
            let (color, name) = pair
            return File.Color(name: "\(name) \(PaletteText.percent(tenths: share))", red: Double(color.red) / 255,
                              green: Double(color.green) / 255, blue: Double(color.blue) / 255, alpha: 1)
        }
        let file = File(compatibleVersion: "2.0", pluginVersion: "2.22", colors: colors, gradients: [], images: [])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(file)) ?? Data("{}".utf8)) + Data("\n".utf8)
    }

    static func decode(_ data: Data) throws(PaletteDecodingError) -> PhotoColorScheme {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch {
            throw .malformed("not a Sketch palette: \(error)")
        }
        return PhotoColorScheme(colors: file.colors.map { color in
            func byte(_ x: Double) -> UInt8 { UInt8((min(max(x, 0), 1) * 255).rounded()) }
            let weight = color.name?.split(separator: " ").last.flatMap { PaletteText.weight(percent: $0) } ?? 0
            return PaletteColor(red: byte(color.red), green: byte(color.green), blue: byte(color.blue), weight: weight)
        })
    }
}
