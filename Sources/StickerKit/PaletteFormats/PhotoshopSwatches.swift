import Foundation

/// Photoshop colour swatches (`.aco`), big-endian: a version 1 section, then the same colours
/// again as version 2 with names (old readers stop after version 1; newer ones read the names):
///
///     u16 version (1, then 2)  u16 colour count
///     colour: u16 space (0 = RGB)  u16 R, G, B (0…65535)  u16 0
///             version 2 only: u32 name length (UTF-16 units incl. the NUL), UTF-16BE name, NUL
///
/// Each name is the colour's name and share, "tomato 50.0%", so the weights survive the trip.
enum PhotoshopSwatches {
    private static let rgbSpace: UInt16 = 0

    static func encode(_ scheme: PhotoColorScheme) -> Data {
        let tenths = PaletteText.roundedWeights(scheme.colors, units: 1000)
        let names = zip(PaletteNames.names(scheme.colors), tenths).map { "\($0) \(PaletteText.percent(tenths: $1))" }
        var out = Data()
        for version in [UInt16(1), 2] {
            out.appendBigEndian(version)
            out.appendBigEndian(UInt16(scheme.colors.count))
            for (color, name) in zip(scheme.colors, names) {
                out.appendBigEndian(rgbSpace)
                for channel in [color.red, color.green, color.blue] { out.appendBigEndian(UInt16(channel) * 257) }
                out.appendBigEndian(UInt16(0))
                guard version == 2 else { continue }
                let units = Array(name.utf16) + [0]
                out.appendBigEndian(UInt32(units.count))
                for unit in units { out.appendBigEndian(unit) }
            }
        }
        return out
    }

    /// Reads version 2 when it follows version 1 (names and weights), else version 1 alone.
    static func decode(_ data: Data) throws(PaletteDecodingError) -> PhotoColorScheme {
        var reader = BigEndianReader(bytes: [UInt8](data))
        guard try reader.uint16() == 1 else { throw .malformed("not a Photoshop swatch file (no version 1 section)") }
        var colors = try section(&reader, named: false)
        if !reader.isAtEnd {
            guard try reader.uint16() == 2 else { throw .malformed("the section after version 1 is not version 2") }
            colors = try section(&reader, named: true)
        }
        return PhotoColorScheme(colors: colors)
    }

    private static func section(_ reader: inout BigEndianReader, named: Bool) throws(PaletteDecodingError) -> [PaletteColor] {
        let count = Int(try reader.uint16())
        var colors: [PaletteColor] = []
        for _ in 0..<count {
            let space = try reader.uint16()
            guard space == rgbSpace else { throw .malformed("colour space \(space) is not RGB") }
            let channels = try (0..<3).map { _ throws(PaletteDecodingError) in
                UInt8(clamping: Int((Double(try reader.uint16()) / 257).rounded()))
            }
            _ = try reader.uint16()
            var weight = 0.0
            if named {
                let name = try reader.utf16Name(unitCount: Int(try reader.uint32()))
                weight = name.split(separator: " ").last.flatMap { PaletteText.weight(percent: $0) } ?? 0
            }
            colors.append(PaletteColor(red: channels[0], green: channels[1], blue: channels[2], weight: weight))
        }
        return colors
    }
}
