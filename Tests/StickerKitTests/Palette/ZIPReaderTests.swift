import Foundation
import Testing
@testable import StickerKit

/// The ZIP reader behind Procreate swatches. A directory or local-header offset past the end (what
/// the palette fuzz target made) crashed the program while ZIPFoundation's in-memory archive read
/// the swatches: its memory file seeked past its data and the next read trapped.
@Suite struct ZIPReaderTests {
    /// Our own stored sunset.swatches with one little-endian field overwritten.
    private func sunsetSwatches(patching field: (Data) -> Int, width: Int, with value: UInt32) throws -> Data {
        var data = try golden(.procreate)
        let offset = field(data)
        for byte in 0..<width { data[offset + byte] = UInt8(truncatingIfNeeded: value >> (8 * byte)) }
        return data
    }

    private func endRecord(_ data: Data) -> Int { data.count - 22 }
    private func directory(_ data: Data) -> Int {
        Int(data[endRecord(data) + 16]) | Int(data[endRecord(data) + 17]) << 8
    }

    @Test("a swatch file whose ZIP directory, entry or data lie past the end is refused, not a crash")
    func offsetsPastTheEnd() throws {
        let damaged = [
            try sunsetSwatches(patching: { endRecord($0) + 16 }, width: 4, with: 0xFFFF_0000),  // directory offset
            try sunsetSwatches(patching: { directory($0) + 42 }, width: 4, with: 0x7FFF_0000),  // local header offset
            try sunsetSwatches(patching: { directory($0) + 20 }, width: 4, with: 0x7FFF_0000),  // compressed size
            try sunsetSwatches(patching: { directory($0) + 28 }, width: 2, with: 0xFFFF),  // name length
            try sunsetSwatches(patching: { _ in 26 }, width: 2, with: 0xFFFF),  // local name length
        ]
        for data in damaged {
            #expect(throws: PaletteDecodingError.self) { try PaletteFormat.procreate.decode(data) }
        }
    }

    @Test("bytes that are not a ZIP are refused as not a ZIP archive")
    func notAZIP() {
        #expect(throws: PaletteDecodingError.malformed("not a ZIP archive")) {
            try ZIPReader.file("Swatches.json", in: Data("#E63946  50.0%\n".utf8))
        }
    }

    @Test("a deflated Swatches.json, as Procreate and Python's zipfile write it, is read")
    func deflated() throws {
        let url = try #require(Bundle.module.url(forResource: "sunset-deflated", withExtension: "swatches",
                                                 subdirectory: "Fixtures/palettes"))
        let read = try PaletteFormat.procreate.decode(Data(contentsOf: url))
        #expect(read.colors.map(\.hex) == ["#E63946", "#1D3557", "#A8DADC"])
    }

    @Test("a deflated entry that inflates past its declared size is refused")
    func inflatesPastItsSize() throws {
        let url = try #require(Bundle.module.url(forResource: "sunset-deflated", withExtension: "swatches",
                                                 subdirectory: "Fixtures/palettes"))
        var data = try Data(contentsOf: url)
        let sizeField = directory(data) + 24
        data.replaceSubrange(sizeField..<sizeField + 4, with: [10, 0, 0, 0])
        #expect(throws: PaletteDecodingError.malformed("the ZIP entry inflates past its size")) {
            try ZIPReader.file("Swatches.json", in: data)
        }
    }

    @Test("an entry larger than the limit is refused before it is read")
    func tooLarge() throws {
        let data = try golden(.procreate)
        #expect(throws: PaletteDecodingError.self) { try ZIPReader.file("Swatches.json", in: data, maxSize: 100) }
    }
}
