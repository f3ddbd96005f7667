import Foundation

/// `{"colors":[{"hex":"#RRGGBB","weight":0.42,"name":"…","textColor":"#000000",
/// "contrast":{"white":4.48,"black":4.69}}]}` on one line, weights to 4 decimals summing to 1;
/// `name` is the nearest named colour, `textColor` the more readable of black and white text on
/// the colour, `contrast` the WCAG 2.x ratios against white and black, to two decimals.
enum JSONPalette {
    static func encode(_ scheme: PhotoColorScheme) -> String {
        let units = PaletteText.roundedWeights(scheme.colors, units: 10_000)
        let entries = zip(scheme.colors, units).map { color, share in
            "{\"hex\":\"\(color.hex)\",\"weight\":\(PaletteText.decimal(share, digits: 4))"
                + ",\"name\":\"\(ColorNames.name(of: color))\",\"textColor\":\"\(color.textColor.hex)\""
                + ",\"contrast\":{\"white\":\(PaletteText.ratio(color.contrastRatio(with: .white)))"
                + ",\"black\":\(PaletteText.ratio(color.contrastRatio(with: .black)))}}"
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
