import Foundation
import ZIPFoundation

/// Reads one file out of a ZIP archive held in memory (a Procreate `.swatches` someone sent), every
/// offset and size checked against the bytes before use. Stored and deflated entries; no ZIP64, no
/// encryption (a swatch file needs neither).
///
/// Not ZIPFoundation's `Archive(data:)`: its in-memory file seeks past the end when an archive's
/// offsets point there, and the next read traps (a malformed file crashed the program), and it
/// leaks the data it copied when the bytes are not a ZIP at all (both found by fuzzing, 0.9.20).
/// ZIPFoundation still inflates deflated entries.
enum ZIPReader {
    /// A `.swatches` holds a few hundred bytes of JSON; more than this is not a palette.
    static let maxFileSize = 1 << 20

    /// The contents of the file at `path`.
    static func file(_ path: String, in data: Data, maxSize: Int = maxFileSize) throws(PaletteDecodingError) -> Data {
        let bytes = [UInt8](data)
        let end = try endOfCentralDirectory(bytes)
        var offset = Int(le32(bytes, end + 16))
        for _ in 0..<Int(le16(bytes, end + 10)) {
            guard offset + 46 <= end, le32(bytes, offset) == 0x0201_4B50 else { throw .malformed("a damaged ZIP directory") }
            let nameLength = Int(le16(bytes, offset + 28))
            let skip = nameLength + Int(le16(bytes, offset + 30)) + Int(le16(bytes, offset + 32))
            guard offset + 46 + skip <= end else { throw .malformed("a damaged ZIP directory") }
            if bytes[(offset + 46)..<(offset + 46 + nameLength)].elementsEqual(path.utf8) {
                return try contents(bytes, entry: offset, maxSize: maxSize)
            }
            offset += 46 + skip
        }
        throw .malformed("the ZIP holds no \(path)")
    }

    /// The offset of the end-of-central-directory record: the last one, whose comment fits.
    private static func endOfCentralDirectory(_ bytes: [UInt8]) throws(PaletteDecodingError) -> Int {
        let recordSize = 22
        if bytes.count >= recordSize {
            for offset in stride(from: bytes.count - recordSize, through: max(0, bytes.count - recordSize - 0xFFFF), by: -1)
            where le32(bytes, offset) == 0x0605_4B50 && offset + recordSize + Int(le16(bytes, offset + 20)) <= bytes.count {
                return offset
            }
        }
        throw .malformed("not a ZIP archive")
    }

    /// The file a central directory entry describes, checked against its size and CRC-32.
    private static func contents(_ bytes: [UInt8], entry: Int, maxSize: Int) throws(PaletteDecodingError) -> Data {
        let flags = le16(bytes, entry + 8), method = le16(bytes, entry + 10), crc = le32(bytes, entry + 16)
        let compressedSize = Int(le32(bytes, entry + 20)), size = Int(le32(bytes, entry + 24))
        let header = Int(le32(bytes, entry + 42))
        guard flags & 1 == 0 else { throw .malformed("the ZIP entry is encrypted") }
        guard size <= maxSize else { throw .malformed("the ZIP entry is \(size) bytes, more than \(maxSize)") }
        guard header + 30 <= bytes.count, le32(bytes, header) == 0x0403_4B50 else { throw .malformed("a damaged ZIP entry") }
        let start = header + 30 + Int(le16(bytes, header + 26)) + Int(le16(bytes, header + 28))
        guard compressedSize <= bytes.count - start else { throw .malformed("the ZIP entry runs past the end") }
        let compressed = Data(bytes[start..<(start + compressedSize)])
        let contents: Data
        switch method {
        case 0: contents = compressed
        case 8: contents = try inflate(compressed, size: size)
        default: throw .malformed("the ZIP entry is compressed with method \(method), not stored or deflated")
        }
        guard contents.count == size, contents.crc32(checksum: 0) == crc else {
            throw .malformed("the ZIP entry does not match its size and checksum")
        }
        return contents
    }

    /// Raw deflate through ZIPFoundation, never more than `size` bytes out (a ZIP bomb stops there).
    private static func inflate(_ compressed: Data, size: Int) throws(PaletteDecodingError) -> Data {
        let chunk = 16 * 1024
        var out = Data()
        do {
            _ = try Data.decompress(size: Int64(compressed.count), bufferSize: chunk, skipCRC32: true, provider: { position, count in
                // ZIPFoundation's inflater takes every chunk as `count` bytes long and asks again
                // until the stream ends: pad the last chunk, and refuse to read past the data.
                guard position < compressed.count else { throw PaletteDecodingError.malformed("the deflated ZIP entry is cut off") }
                let piece = compressed[(compressed.startIndex + Int(position))...].prefix(count)
                return piece + Data(count: count - piece.count)
            }, consumer: { piece in
                guard out.count + piece.count <= size else { throw PaletteDecodingError.malformed("the ZIP entry inflates past its size") }
                out.append(piece)
            })
        } catch let error as PaletteDecodingError {
            throw error
        } catch {
            throw .malformed("the ZIP entry's deflate data is damaged")
        }
        return out
    }

    private static func le16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func le32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(le16(bytes, offset)) | UInt32(le16(bytes, offset + 2)) << 16
    }
}
