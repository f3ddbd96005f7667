import Foundation
import Testing
@testable import StickerKit

/// The hand-checked scheme behind the golden files in Fixtures/palettes/sunset.*.
let sunset = PhotoColorScheme(colors: [
    PaletteColor(red: 0xE6, green: 0x39, blue: 0x46, weight: 1.0 / 2),
    PaletteColor(red: 0x1D, green: 0x35, blue: 0x57, weight: 1.0 / 3),
    PaletteColor(red: 0xA8, green: 0xDA, blue: 0xDC, weight: 1.0 / 6),
])

func golden(_ format: PaletteFormat) throws -> Data {
    let url = try #require(Bundle.module.url(forResource: "sunset", withExtension: format.fileExtension,
                                             subdirectory: "Fixtures/palettes"))
    return try Data(contentsOf: url)
}

@Suite struct PaletteFormatTests {
    @Test(arguments: PaletteFormat.allCases)
    func eachFormatWritesExactlyItsGoldenFile(format: PaletteFormat) throws {
        let written = format.encode(sunset, name: "Sunset")
        let expected = try golden(format)
        #expect(written == expected, "\(format): \(String(decoding: written, as: UTF8.self))")
    }

    @Test(arguments: PaletteFormat.allCases)
    func eachFormatReadsItsGoldenFileBack(format: PaletteFormat) throws {
        let read = try format.decode(try golden(format))
        #expect(read.colors.map(\.hex) == ["#E63946", "#1D3557", "#A8DADC"])
        for (got, want) in zip(read.colors, sunset.colors) { #expect(abs(got.weight - want.weight) < 0.0006) }
    }

    @Test(arguments: PaletteFormat.allCases)
    func everyFormatRoundTripsAnExtractedScheme(format: PaletteFormat) throws {
        let scheme = ColorExtractor().extractColors(from: busyImage(), count: 10)
        let read = try format.decode(format.encode(scheme, name: "Busy ∗ ünïcode"))
        #expect(read.colors.map(\.hex) == scheme.colors.map(\.hex))
        for (got, want) in zip(read.colors, scheme.colors) { #expect(abs(got.weight - want.weight) < 0.0006) }
    }

    @Test func roundedSharesStillAddUpToTheWhole() {
        let sevenths = PhotoColorScheme(colors: (0..<7).map { PaletteColor(red: UInt8($0 * 30), green: 0, blue: 0, weight: 1.0 / 7) })
        #expect(PaletteText.roundedWeights(sevenths.colors, units: 1000).reduce(0, +) == 1000)
        #expect(PaletteText.roundedWeights(sevenths.colors, units: 10_000).reduce(0, +) == 10_000)
        let text = String(decoding: PaletteFormat.text.encode(sevenths), as: UTF8.self)
        #expect(text.split(separator: "\n").first == "#000000  14.3%")
    }

    @Test func anEmptySchemeWritesAnEmptyPalette() throws {
        for format in PaletteFormat.allCases {
            #expect(try format.decode(format.encode(PhotoColorScheme(colors: []))).colors.isEmpty)
        }
    }

    @Test(arguments: [
        (PaletteFormat.text, Data("#12345  10%\n".utf8)),
        (.json, Data("{\"colours\":[]}".utf8)),
        (.json, Data("{\"colors\":[{\"hex\":\"red\",\"weight\":1}]}".utf8)),
        (.gpl, Data("Not a palette\n".utf8)),
        (.ase, Data("ASEF".utf8)),
        (.ase, Data([0xFF, 0xFE])),
    ])
    func malformedPalettesAreRejectedWithAnError(format: PaletteFormat, data: Data) {
        #expect(throws: PaletteDecodingError.self) { try format.decode(data) }
    }

    @Test func aTruncatedSwatchFileIsRejectedAtEveryLength() throws {
        let full = PaletteFormat.ase.encode(sunset, name: "Sunset")
        for length in 0..<full.count {
            #expect(throws: PaletteDecodingError.self) { try PaletteFormat.ase.decode(full.prefix(length)) }
        }
    }
}

/// Walks our .ase output field by field, independently of the writer, as another program would.
@Test func theSwatchExchangeFileParsesBackByteByByte() throws {
    let bytes = [UInt8](PaletteFormat.ase.encode(sunset, name: "Sunset"))
    var at = 0
    func take(_ n: Int) -> [UInt8] { defer { at += n }; return Array(bytes[at..<at + n]) }
    func u16() -> Int { let b = take(2); return Int(b[0]) << 8 | Int(b[1]) }
    func u32() -> Int { let b = take(4); return Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3]) }
    func utf16Name() -> String {
        let units = (0..<u16()).map { _ in UInt16(u16()) }
        #expect(units.last == 0, "names end with a NUL")
        return String(decoding: units.dropLast(), as: UTF16.self)
    }

    #expect(take(4) == Array("ASEF".utf8))
    #expect(u16() == 1 && u16() == 0)
    #expect(u32() == 5, "group start + 3 colours + group end")

    #expect(u16() == 0xC001)
    #expect(u32() == 2 + 7 * 2)
    #expect(utf16Name() == "Sunset")

    let expected: [(String, [UInt8])] = [("#E63946 50.0%", [230, 57, 70]), ("#1D3557 33.3%", [29, 53, 87]),
                                         ("#A8DADC 16.7%", [168, 218, 220])]
    for (name, rgb) in expected {
        #expect(u16() == 0x0001)
        #expect(u32() == 2 + (name.utf16.count + 1) * 2 + 4 + 12 + 2)
        #expect(utf16Name() == name)
        #expect(take(4) == Array("RGB ".utf8))
        for channel in rgb {
            let value = Float(bitPattern: UInt32(u32()))
            #expect(value == Float(channel) / 255)
        }
        #expect(u16() == 2, "a normal (global: no, spot: no) colour")
    }
    #expect(u16() == 0xC002)
    #expect(u32() == 0)
    #expect(at == bytes.count, "nothing after the last block")
}
