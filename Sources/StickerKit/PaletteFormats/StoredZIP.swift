import Foundation
import ZIPFoundation

/// A one-file ZIP archive with the file stored (not compressed) and a fixed date (1980-01-01), so
/// the same palette always gives the same bytes (golden files, caches). `ZIPReader` reads any ZIP
/// another program wrote.
enum StoredZIP {
    static func archive(_ contents: Data, named path: String) -> Data {
        let name = Data(path.utf8)
        let crc = contents.crc32(checksum: 0)
        // 1980-01-01 00:00 in MS-DOS time and date fields.
        let (dosTime, dosDate): (UInt16, UInt16) = (0, 1 << 5 | 1)
        var out = Data()
        func common() {
            out.appendLittleEndian(UInt16(20)); out.appendLittleEndian(UInt16(0)); out.appendLittleEndian(UInt16(0))
            out.appendLittleEndian(dosTime); out.appendLittleEndian(dosDate)
            out.appendLittleEndian(crc)
            out.appendLittleEndian(UInt32(contents.count)); out.appendLittleEndian(UInt32(contents.count))
            out.appendLittleEndian(UInt16(name.count))
        }
        // Local file header (version needed 2.0, no flags, stored), then the file.
        out.appendLittleEndian(UInt32(0x0403_4B50)); common(); out.appendLittleEndian(UInt16(0))
        out.append(name); out.append(contents)
        // Central directory: made by 2.0, then the same fields, no extra/comment, at offset 0.
        let directoryOffset = out.count
        out.appendLittleEndian(UInt32(0x0201_4B50)); out.appendLittleEndian(UInt16(20)); common()
        for _ in 0..<4 { out.appendLittleEndian(UInt16(0)) }  // extra, comment, disk, internal attributes
        out.appendLittleEndian(UInt32(0)); out.appendLittleEndian(UInt32(0))  // external attributes, offset
        out.append(name)
        let directorySize = out.count - directoryOffset
        // End of central directory: one entry on this one disk.
        out.appendLittleEndian(UInt32(0x0605_4B50)); out.appendLittleEndian(UInt16(0)); out.appendLittleEndian(UInt16(0))
        out.appendLittleEndian(UInt16(1)); out.appendLittleEndian(UInt16(1))
        out.appendLittleEndian(UInt32(directorySize)); out.appendLittleEndian(UInt32(directoryOffset))
        out.appendLittleEndian(UInt16(0))
        return out
    }
}

extension Data {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
