import Foundation
import Raster
import Testing
@testable import StickerKit

private func color(_ hex: String) -> PaletteColor {
    PaletteText.color(hex: hex, weight: 1) ?? PaletteColor(red: 0, green: 0, blue: 0, weight: 1)
}

@Suite struct ContrastTests {
    @Test("contrast ratios equal the WCAG 2.x formula on published pairs", arguments: [
        ("#777777", "#FFFFFF", "4.48"),  // WebAIM: fails AA by a hair
        ("#767676", "#FFFFFF", "4.54"),  // the lightest grey passing AA on white
        ("#000000", "#FFFFFF", "21.00"),
        ("#FFFFFF", "#FFFFFF", "1.00"),
        ("#0000FF", "#FFFFFF", "8.59"),
        ("#FF0000", "#000000", "5.25"),
    ])
    func publishedPairs(foreground: String, background: String, ratio: String) {
        #expect(PaletteText.ratio(color(foreground).contrastRatio(with: color(background))) == ratio)
        #expect(PaletteText.ratio(color(background).contrastRatio(with: color(foreground))) == ratio, "symmetric")
    }

    @Test("the text colour is whichever of black and white contrasts more")
    func textColor() {
        #expect(color("#777777").textColor == .black)  // 4.69 against black, 4.48 against white
        #expect(color("#1D3557").textColor == .white)
        #expect(color("#FFFF00").textColor == .black)
        #expect(color("#0000FF").textColor == .white)
    }

    @Test("levels are judged on the exact ratio, never a rounded one")
    func levels() {
        #expect(ContrastLevel(ratio: 7) == .aaa)
        #expect(ContrastLevel(ratio: 4.499) == .aaLarge)
        #expect(ContrastLevel(ratio: 4.5) == .aa)
        #expect(ContrastLevel(ratio: 2.99) == .fail)
        #expect(ContrastLevel(ratio: color("#777777").contrastRatio(with: .white)) == .aaLarge)
    }

    @Test("the contrast matrix lists every pair with its ratio and level")
    func matrix() {
        let table = ContrastTable.text(PhotoColorScheme(colors: [color("#000000"), color("#FFFFFF"), color("#777777")]))
        let lines = table.split(separator: "\n")
        #expect(lines.count == 5)
        #expect(lines[1] == "         #000000    #FFFFFF    #777777")
        #expect(lines[2] == "#000000   1.00 -    21.00 AAA   4.69 AA")
        #expect(lines[4] == "#777777   4.69 AA    4.48 AA18   1.00 -")
    }
}

@Suite struct ColorNameTests {
    @Test("the xkcd survey's own colours are named exactly", arguments: [
        ("#E50000", "red"), ("#15B01A", "green"), ("#0343DF", "blue"), ("#FFFFFF", "white"),
        ("#000000", "black"), ("#C79FEF", "lavender"),
    ])
    func exactNames(hex: String, name: String) {
        #expect(ColorNames.name(of: color(hex)) == name)
    }

    @Test("a colour near a named one takes its name, by CIEDE2000")
    func nearestName() {
        #expect(ColorNames.count == 949)
        #expect(ColorNames.name(of: color("#E40102")) == "red")
        #expect(ColorNames.name(of: color("#FEFEFE")) == "white")
    }

    @Test("the pruned search names every colour as the exhaustive CIEDE2000 search does")
    func prunedSearchIsExact() {
        // Every 16th level per channel and the extremes (17³ colours): skipping candidates by
        // their lightness bound must never change the name.
        let levels = Array(stride(from: 0, through: 255, by: 16)) + [255]
        var differing: [String] = []
        for red in levels {
            for green in levels {
                for blue in levels {
                    let color = PaletteColor(red: UInt8(red), green: UInt8(green), blue: UInt8(blue), weight: 1)
                    if ColorNames.name(of: color) != ColorNames.exhaustiveName(of: color) { differing.append(color.hex) }
                }
            }
        }
        #expect(differing.isEmpty)
    }

    @Test("the lightness bound is never above the CIEDE2000 distance")
    func lowerBound() {
        var seed: UInt64 = 7
        func next() -> UInt8 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return UInt8(seed >> 56) }
        for _ in 0..<20_000 {
            let a = CIELab(red: next(), green: next(), blue: next()), b = CIELab(red: next(), green: next(), blue: next())
            #expect(a.deltaE2000LowerBound(to: b) <= a.deltaE2000(to: b) * (1 + 1e-12))
        }
    }

    @Test("the JSON palette carries each colour's name, text colour and contrast")
    func jsonFields() throws {
        let json = String(decoding: PaletteFormat.json.encode(PhotoColorScheme(colors: [color("#777777")])), as: UTF8.self)
        #expect(json.contains(##""textColor":"#000000""##))
        #expect(json.contains(#""contrast":{"white":4.48,"black":4.69}"#))
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [[String: Any]]]
        let entry = try #require(object?["colors"]?.first)
        #expect(entry["name"] as? String == ColorNames.name(of: color("#777777")))
    }
}
