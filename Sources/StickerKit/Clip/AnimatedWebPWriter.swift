import Foundation
import Raster

/// An animated WebP, looping forever, written around libwebp's still encoder: each frame is
/// encoded by `WebP.encode` and its image chunks (`ALPH` + `VP8 `, or `VP8L`) are wrapped in an
/// `ANMF` chunk; a `VP8X` header (animation + alpha) and an `ANIM` chunk (loop count 0) lead.
/// The container is WebP's RIFF layout ("WebP Container Specification", Google): writing it
/// ourselves spares `libwebpmux`, which a fresh machine lacks. Only the encoded frames are kept.
public struct AnimatedWebPWriter: Sendable {
    public let width: Int
    public let height: Int
    private var frames = Data()
    public private(set) var frameCount = 0

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Adds a frame of the canvas's size shown for `milliseconds`.
    public mutating func add(_ image: Image, milliseconds: Int, settings: WebP.Settings) throws(ImageCodecError) {
        precondition(image.width == width && image.height == height, "a frame differs from the canvas")
        let still = try WebP.encode(image, settings)
        add(encodedFrame: try Self.imageChunks(of: still), milliseconds: milliseconds)
    }

    /// Adds a frame from its image chunks (as `imageChunks(of:)` returns them).
    public mutating func add(encodedFrame chunks: Data, milliseconds: Int) {
        var payload = Data()
        payload.appendUInt24(0)  // X offset / 2
        payload.appendUInt24(0)  // Y offset / 2
        payload.appendUInt24(width - 1)
        payload.appendUInt24(height - 1)
        payload.appendUInt24(min(0xFF_FFFF, max(1, milliseconds)))
        payload.append(0b10)  // do not blend (a transparent pixel replaces the last frame's), no disposal
        payload.append(chunks)
        frames.appendChunk("ANMF", payload)
        frameCount += 1
    }

    /// The whole file.
    public func data() -> Data {
        var header = Data()
        header.append(0b0001_0010)  // alpha, animation
        header.append(contentsOf: [0, 0, 0])
        header.appendUInt24(width - 1)
        header.appendUInt24(height - 1)
        var body = Data("WEBP".utf8)
        body.appendChunk("VP8X", header)
        body.appendChunk("ANIM", Data([0, 0, 0, 0, 0, 0]))  // background transparent, loop forever
        body.append(frames)
        var file = Data("RIFF".utf8)
        file.appendUInt32LE(UInt32(body.count))
        file.append(body)
        return file
    }

    /// The image chunks of a still WebP file (`ALPH`, `VP8 `, `VP8L`), without its RIFF and `VP8X` headers.
    public static func imageChunks(of still: Data) throws(ImageCodecError) -> Data {
        let bytes = [UInt8](still)
        guard bytes.count >= 20, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else {
            throw .encodingFailed("libwebp returned no WebP file")
        }
        var out = Data()
        var offset = 12
        while offset + 8 <= bytes.count {
            let tag = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
            let end = offset + 8 + size + (size & 1)
            guard offset + 8 + size <= bytes.count else { throw .encodingFailed("libwebp returned a truncated chunk") }
            if ["ALPH", "VP8 ", "VP8L"].contains(tag) { out.append(contentsOf: bytes[offset..<min(end, bytes.count)]) }
            offset = end
        }
        guard !out.isEmpty else { throw .encodingFailed("libwebp returned no image chunk") }
        return out
    }
}

extension Data {
    mutating func appendUInt24(_ value: Int) {
        append(UInt8(value & 0xFF)); append(UInt8((value >> 8) & 0xFF)); append(UInt8((value >> 16) & 0xFF))
    }

    mutating func appendUInt32LE(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    mutating func appendUInt32BE(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    /// A RIFF chunk: tag, little-endian size, payload, a pad byte when the size is odd.
    mutating func appendChunk(_ tag: String, _ payload: Data) {
        append(contentsOf: Array(tag.utf8))
        appendUInt32LE(UInt32(payload.count))
        append(payload)
        if payload.count & 1 == 1 { append(0) }
    }
}
