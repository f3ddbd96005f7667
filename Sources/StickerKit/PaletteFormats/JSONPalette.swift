import Foundation

/// `{"colors":[{"hex":"#RRGGBB","weight":0.42}]}` on one line, weights to 4 decimals summing to 1.
enum JSONPalette {
    static func encode(_ scheme: PhotoColorScheme) -> String {
        let units = PaletteText.roundedWeights(scheme.colors, units: 10_000)
        let entries = zip(scheme.colors, units).map {
            "{\"hex\":\"\($0.hex)\",\"weight\":\(PaletteText.decimal($1, digits: 4))}"
        }
        return "{\"colors\":[" + entries.joined(separator: ",") + "]}\n"
    }

    private struct File: Decodable {
        struct Entry: Decodable { let hex: String; let weight: Double }
        let colors: [Entry]
    }

    static func decode(_ text: String) throws(PaletteDecodingError) -> PhotoColorScheme {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: Data(text.utf8)) } catch {
            throw .malformed("not a palette JSON object: \(error)")
        }
        var colors: [PaletteColor] = []
        for entry in file.colors {
            guard let color = PaletteText.color(hex: entry.hex, weight: entry.weight) else {
                throw .malformed("“\(entry.hex)” is not #RRGGBB")
            }
            colors.append(color)
        }
        return PhotoColorScheme(colors: colors)
    }
}
