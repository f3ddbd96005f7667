import Foundation

/// Adobe Swatch Exchange (`.ase`), version 1.0, all numbers big-endian:
///
///     "ASEF"  u16 major=1  u16 minor=0  u32 block count
///     block:  u16 type  u32 length of what follows
///       0xC001 group start: u16 name length (UTF-16 units incl. the NUL), UTF-16BE name, NUL
///       0x0001 colour:      name as above, "RGB ", 3 × f32 (0…1), u16 kind (2 = normal)
///       0xC002 group end:   (empty)
///
/// The colours sit in one group named after the palette; each colour's name is its hex and share.
enum AdobeSwatchExchange {
    private enum BlockType: UInt16 { case color = 0x0001, groupStart = 0xC001, groupEnd = 0xC002 }
    private static let normalColor: UInt16 = 2

    static func encode(_ scheme: PhotoColorScheme, name: String) -> Data {
        let tenths = PaletteText.roundedWeights(scheme.colors, units: 1000)
        var out = Data("ASEF".utf8)
        out.appendBigEndian(UInt16(1)); out.appendBigEndian(UInt16(0))
        out.appendBigEndian(UInt32(scheme.colors.count + 2))
        appendBlock(.groupStart, to: &out) { $0.appendName(name) }
        for (color, share) in zip(scheme.colors, tenths) {
            appendBlock(.color, to: &out) { block in
                block.appendName("\(color.hex) \(PaletteText.percent(tenths: share))")
                block.append(contentsOf: Array("RGB ".utf8))
                for channel in [color.red, color.green, color.blue] {
                    block.appendBigEndian((Float(channel) / 255).bitPattern)
                }
                block.appendBigEndian(normalColor)
            }
        }
        appendBlock(.groupEnd, to: &out) { _ in }
        return out
    }

    private static func appendBlock(_ type: BlockType, to out: inout Data, _ body: (inout Data) -> Void) {
        var block = Data()
        body(&block)
        out.appendBigEndian(type.rawValue)
        out.appendBigEndian(UInt32(block.count))
        out.append(block)
    }

    static func decode(_ data: Data) throws(PaletteDecodingError) -> PhotoColorScheme {
        var reader = BigEndianReader(bytes: [UInt8](data))
        guard try reader.bytes(4) == Array("ASEF".utf8) else { throw .malformed("no ASEF signature") }
        guard try reader.uint16() == 1 else { throw .malformed("not ASE version 1") }
        _ = try reader.uint16()
        let blockCount = try reader.uint32()
        var colors: [PaletteColor] = []
        for _ in 0..<blockCount {
            let type = try reader.uint16()
            let length = Int(try reader.uint32())
            var block = BigEndianReader(bytes: try reader.bytes(length))
            guard type == BlockType.color.rawValue else { continue }
            let name = try block.name()
            let model = String(decoding: try block.bytes(4), as: UTF8.self)
            guard model == "RGB " else { throw .malformed("colour model “\(model)” is not RGB") }
            let channels = try (0..<3).map { _ throws(PaletteDecodingError) in
                let value = Float(bitPattern: try block.uint32())
                // Any 32 bits are some float: NaN, infinity or 1e38 would trap converting to Int.
                guard value.isFinite else { throw .malformed("a colour channel is \(value), not a number in 0…1") }
                return UInt8((min(max(value, 0), 1) * 255).rounded())
            }
            let nameFields = name.split(separator: " ")
            let weight = nameFields.count > 1 ? PaletteText.weight(percent: nameFields[1]) ?? 0 : 0
            colors.append(PaletteColor(red: channels[0], green: channels[1], blue: channels[2], weight: weight))
        }
        return PhotoColorScheme(colors: colors)
    }
}

extension Data {
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// u16 length in UTF-16 units including the terminating NUL, then the UTF-16BE units and NUL.
    mutating func appendName(_ name: String) {
        let units = Array(name.utf16) + [0]
        appendBigEndian(UInt16(units.count))
        for unit in units { appendBigEndian(unit) }
    }
}

/// Reads big-endian fields from bytes, throwing instead of reading past the end.
struct BigEndianReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func bytes(_ count: Int) throws(PaletteDecodingError) -> [UInt8] {
        guard count >= 0, offset + count <= bytes.count else { throw .malformed("ends early at byte \(offset)") }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    mutating func uint16() throws(PaletteDecodingError) -> UInt16 {
        try bytes(2).reduce(0) { $0 << 8 | UInt16($1) }
    }

    mutating func uint32() throws(PaletteDecodingError) -> UInt32 {
        try bytes(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func name() throws(PaletteDecodingError) -> String {
        try utf16Name(unitCount: Int(try uint16()))
    }

    /// `unitCount` UTF-16BE units, a trailing NUL dropped.
    mutating func utf16Name(unitCount count: Int) throws(PaletteDecodingError) -> String {
        guard count <= bytes.count - offset else { throw .malformed("a name runs past the end at byte \(offset)") }
        var units: [UInt16] = []
        for _ in 0..<count { units.append(try uint16()) }
        if units.last == 0 { units.removeLast() }
        return String(decoding: units, as: UTF16.self)
    }
}
