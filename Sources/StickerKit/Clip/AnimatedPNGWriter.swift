import Foundation
import Raster
import ZIPFoundation

/// An APNG (animated PNG, looping forever) from our PNG encoder's output: the first frame's
/// `IHDR`, an `acTL`, then per frame an `fcTL` and its image data (`IDAT` for the first frame, so
/// a viewer without APNG shows it; `fdAT` with a sequence number for the others), as the APNG
/// specification (Mozilla) lays them out. Only the compressed frames are kept.
public struct AnimatedPNGWriter: Sendable {
    public let width: Int
    public let height: Int
    private var header = Data()
    private var body = Data()
    private var sequence: UInt32 = 0
    public private(set) var frameCount = 0

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Adds a frame of the canvas's size shown for `milliseconds`.
    public mutating func add(_ image: Image, milliseconds: Int) throws(ImageCodecError) {
        precondition(image.width == width && image.height == height, "a frame differs from the canvas")
        try add(png: try ImageEncoder.png(image), milliseconds: milliseconds)
    }

    /// Adds a frame from a whole PNG file of the canvas's size.
    public mutating func add(png: Data, milliseconds: Int) throws(ImageCodecError) {
        let chunks = try Self.chunks(of: png)
        if frameCount == 0, let ihdr = chunks.first(where: { $0.tag == "IHDR" }) { header = ihdr.payload }
        var control = Data()
        control.appendUInt32BE(nextSequence())
        control.appendUInt32BE(UInt32(width)); control.appendUInt32BE(UInt32(height))
        control.appendUInt32BE(0); control.appendUInt32BE(0)  // offsets
        let delay = UInt16(min(65_535, max(1, milliseconds)))
        control.append(UInt8(delay >> 8)); control.append(UInt8(delay & 0xFF))
        control.append(0x03); control.append(0xE8)  // delay in thousandths of a second
        control.append(0)  // dispose: none (the next frame replaces every pixel)
        control.append(0)  // blend: source (transparent pixels replace)
        body.appendPNGChunk("fcTL", control)
        for chunk in chunks where chunk.tag == "IDAT" {
            if frameCount == 0 {
                body.appendPNGChunk("IDAT", chunk.payload)
            } else {
                var data = Data()
                data.appendUInt32BE(nextSequence())
                data.append(chunk.payload)
                body.appendPNGChunk("fdAT", data)
            }
        }
        frameCount += 1
    }

    private mutating func nextSequence() -> UInt32 {
        defer { sequence += 1 }
        return sequence
    }

    /// The whole file.
    public func data() -> Data {
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        file.appendPNGChunk("IHDR", header)
        var animation = Data()
        animation.appendUInt32BE(UInt32(frameCount))
        animation.appendUInt32BE(0)  // plays: forever
        file.appendPNGChunk("acTL", animation)
        file.append(body)
        file.appendPNGChunk("IEND", Data())
        return file
    }

    static func chunks(of png: Data) throws(ImageCodecError) -> [(tag: String, payload: Data)] {
        let bytes = [UInt8](png)
        guard bytes.count > 8 else { throw .encodingFailed("the PNG encoder returned no file") }
        var out: [(String, Data)] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let size = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let tag = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard offset + 12 + size <= bytes.count else { throw .encodingFailed("the PNG encoder returned a truncated chunk") }
            out.append((tag, Data(bytes[(offset + 8)..<(offset + 8 + size)])))
            offset += 12 + size
        }
        return out
    }
}

extension Data {
    /// A PNG chunk: big-endian length, tag, payload, CRC-32 of tag and payload.
    mutating func appendPNGChunk(_ tag: String, _ payload: Data) {
        appendUInt32BE(UInt32(payload.count))
        var tagged = Data(tag.utf8)
        tagged.append(payload)
        append(tagged)
        appendUInt32BE(tagged.crc32(checksum: 0))
    }
}
