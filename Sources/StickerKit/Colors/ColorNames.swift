import Raster

/// Names a colour after the nearest of the xkcd colour survey's 949 named colours, by CIEDE2000.
///
/// The survey's names are what people call colours ("dusty rose", "teal"), not a designer's
/// catalogue, which is what a palette's reader wants; the list is public domain (CC0, see NOTICE)
/// and generated into ColorNameList.swift by scripts/make_color_names.py.
///
/// Speed matters because `stickers palette --format json` names every colour in a process of a few
/// milliseconds: the list is read byte by byte (no strings made for the 948 names that lose), and a
/// named colour whose lightness alone puts it farther than the best so far is passed over without
/// the full CIEDE2000 formula (`deltaE2000LowerBound`). Same names as the exhaustive search
/// (tested); a JSON palette went from ~5 ms to ~0.3 ms of a ~12 ms process (docs/benchmarks.md).
public enum ColorNames {
    private struct Entry {
        /// The name's bytes in `list.utf8`.
        var name: Range<Int>
        var lab: CIELab
    }

    /// The named colours with their CIELAB coordinates, read once from `list`'s lines
    /// ("name;RRGGBB").
    private static let entries: [Entry] = {
        var text = list
        return text.withUTF8(parse)
    }()

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [Entry] {
        var entries: [Entry] = []
        entries.reserveCapacity(1024)
        var lineStart = 0, separator = -1
        for (offset, byte) in zip(0..., bytes) {
            if byte == UInt8(ascii: ";") { separator = offset }
            guard byte == UInt8(ascii: "\n") || offset == bytes.count - 1 else { continue }
            let lineEnd = byte == UInt8(ascii: "\n") ? offset : offset + 1
            defer { lineStart = offset + 1; separator = -1 }
            guard separator > lineStart, lineEnd - separator == 7 else { continue }
            var value: UInt32 = 0
            var valid = true
            for offset in separator + 1..<lineEnd {
                guard let nibble = hexValue(bytes[offset]) else { valid = false; break }
                value = value << 4 | nibble
            }
            guard valid else { continue }
            let lab = CIELab(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
            entries.append(Entry(name: lineStart..<separator, lab: lab))
        }
        return entries
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        default: nil
        }
    }

    /// How many named colours there are to choose from.
    public static var count: Int { entries.count }

    /// The name of the named colour nearest `color` (ties: the first by name).
    public static func name(of color: PaletteColor) -> String {
        let lab = CIELab(red: color.red, green: color.green, blue: color.blue)
        var best: (entry: Int, distance: Double) = (-1, .infinity)
        for (index, entry) in entries.enumerated() {
            // The bound is never above the distance, so an entry at or past the best cannot win
            // (ties go to the earlier one anyway); the margin absorbs rounding between the two.
            if lab.deltaE2000LowerBound(to: entry.lab) > best.distance * (1 + 1e-9) { continue }
            let distance = lab.deltaE2000(to: entry.lab)
            if distance < best.distance { best = (index, distance) }
        }
        return best.entry < 0 ? "" : name(at: best.entry)
    }

    /// The exhaustive search `name(of:)` must agree with (for tests).
    static func exhaustiveName(of color: PaletteColor) -> String {
        let lab = CIELab(red: color.red, green: color.green, blue: color.blue)
        var best: (entry: Int, distance: Double) = (-1, .infinity)
        for (index, entry) in entries.enumerated() {
            let distance = lab.deltaE2000(to: entry.lab)
            if distance < best.distance { best = (index, distance) }
        }
        return best.entry < 0 ? "" : name(at: best.entry)
    }

    private static func name(at index: Int) -> String {
        let range = entries[index].name
        let utf8 = list.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        return String(Substring(utf8[start..<end]))
    }
}
