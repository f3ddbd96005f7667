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
        guard format.keepsWeights else { return }
        for (got, want) in zip(read.colors, sunset.colors) { #expect(abs(got.weight - want.weight) < 0.0006) }
    }

    @Test(arguments: PaletteFormat.allCases)
    func everyFormatRoundTripsAnExtractedScheme(format: PaletteFormat) throws {
        let scheme = ColorExtractor().extractColors(from: busyImage(), count: 10)
        let read = try format.decode(format.encode(scheme, name: "Busy ∗ ünïcode"))
        #expect(read.colors.map(\.hex) == scheme.colors.map(\.hex))
        guard format.keepsWeights else { return }
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
        (.aco, Data([0, 2, 0, 0])),
        (.aco, Data([0, 1, 0, 1, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0])),
        (.procreate, Data("PK not really".utf8)),
        (.sketchpalette, Data("{\"colors\":3}".utf8)),
        (.scss, Data("$red: red;\n".utf8)),
        (.tailwind, Data("module.exports = {}\n".utf8)),
    ])
    func malformedPalettesAreRejectedWithAnError(format: PaletteFormat, data: Data) {
        #expect(throws: PaletteDecodingError.self) { try format.decode(data) }
    }

    @Test(arguments: [PaletteFormat.ase, .aco, .procreate])
    func aTruncatedSwatchFileIsRejectedAtEveryLength(format: PaletteFormat) throws {
        let full = format.encode(sunset, name: "Sunset")
        // .aco: a file cut right after its version 1 section is a whole version 1 file.
        let v1Length = 4 + 10 * sunset.colors.count
        for length in 0..<full.count where !(format == .aco && length == v1Length) {
            #expect(throws: PaletteDecodingError.self) { try format.decode(full.prefix(length)) }
        }
    }

    @Test("formats with names name each colour after its nearest named colour")
    func namedFormats() throws {
        let names = sunset.colors.map(ColorNames.name(of:))
        let scss = String(decoding: PaletteFormat.scss.encode(sunset, name: "Sunset"), as: UTF8.self)
        #expect(scss.contains("$\(PaletteNames.identifiers(sunset.colors)[0]): #E63946; // 50.0%"))
        let sketch = String(decoding: PaletteFormat.sketchpalette.encode(sunset), as: UTF8.self)
        for name in names { #expect(sketch.contains("\"name\":\"\(name) ")) }
    }

    @Test("identifiers are lower-case words joined by dashes, repeated names numbered")
    func identifiers() {
        let twice = [PaletteColor(red: 229, green: 0, blue: 0, weight: 0.5), PaletteColor(red: 228, green: 1, blue: 1, weight: 0.5),
                     PaletteColor(red: 0xC7, green: 0xFD, blue: 0xB5, weight: 0)]
        #expect(PaletteNames.identifiers(twice) == ["red", "red-2", "pale-green"])
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

/// Reads our exports with an independent reader (Python's struct, zipfile and json, in
/// Fixtures/palettes/swatch_check.py), as another program would. Skipped without python3.
@Test("another program reads our new formats back: colours, names and shares", arguments: [
    PaletteFormat.aco, .procreate, .sketchpalette, .scss, .tailwind,
])
func independentReaderReadsOurExports(format: PaletteFormat) throws {
    guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
        return
    }
    let script = try #require(Bundle.module.url(forResource: "swatch_check", withExtension: "py", subdirectory: "Fixtures/palettes"))
    let file = FileManager.default.temporaryDirectory.appending(path: "palette-\(UUID()).\(format.fileExtension)")
    try format.encode(sunset, name: "Sunset").write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let run = Process()
    run.executableURL = URL(fileURLWithPath: python)
    run.arguments = [script.path, format.rawValue, file.path]
    let output = Pipe()
    run.standardOutput = output
    try run.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    run.waitUntilExit()
    #expect(run.terminationStatus == 0)
    let lines = text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
    #expect(lines.map { String($0[0]) } == ["#E63946", "#1D3557", "#A8DADC"])
    if format.keepsWeights {
        #expect(lines.map { $0[1].split(separator: " ").last.map(String.init) } == ["50.0%", "33.3%", "16.7%"])
    }
}
