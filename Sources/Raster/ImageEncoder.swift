import BoundedConcurrency
import CImageCodecs
import Foundation

/// Encodes images as PNG (RGBA or 8-bit grey) and JPEG.
public enum ImageEncoder {
    /// An 8-bit RGBA PNG (Paeth filter, run-length deflate: see png_bands.c), on the calling
    /// thread; `concurrentPNG(_:)` spreads a large one over the cores.
    public static func png(_ image: Image) throws(ImageCodecError) -> Data {
        try onePassPNG(image.pixels, width: image.width, height: image.height, channels: 4)
    }

    /// An 8-bit greyscale PNG (the format of alpha masks).
    public static func png(_ mask: Mask) throws(ImageCodecError) -> Data {
        try onePassPNG(mask.values, width: mask.width, height: mask.height, channels: 1)
    }

    /// A JPEG (YCbCr 4:2:0); alpha is dropped (not composited). `quality` is clamped to 1…100.
    public static func jpeg(_ image: Image, quality: Int = 90, progressive: Bool = false) throws(ImageCodecError) -> Data {
        let quality = Int32(min(max(quality, 1), 100))
        return try encode(image.pixels) { pixels, out, size, status in
            sic_jpeg_encode_rgba(pixels, Int32(image.width), Int32(image.height), quality, progressive ? 1 : 0,
                                 out, size, status)
        }
    }

    private static func encode(
        _ pixels: [UInt8],
        _ call: (UnsafePointer<UInt8>?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                 UnsafeMutablePointer<Int>, UnsafeMutablePointer<sic_status>) -> Int32
    ) throws(ImageCodecError) -> Data {
        guard pixels.count <= Int32.max else { throw .encodingFailed("image too large to encode") }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var status = sic_status()
        _ = pixels.withUnsafeBufferPointer { call($0.baseAddress, &output, &size, &status) }
        guard status.code == SIC_OK, let output else { throw status.error() }
        return Data(bytesNoCopy: output, count: size, deallocator: .custom { pointer, _ in sic_free(pointer) })
    }
}

extension ImageEncoder {
    /// The same PNG as `png(_:)` (same filter and compression, a few bytes apart), encoded off the
    /// caller's actor in bands of rows on up to `maximumBands` cores at once. Large stickers are
    /// full-size photos: their PNG is the longest single step after the network.
    @concurrent
    public static func concurrentPNG(_ image: Image, maximumBands: Int = defaultBands) async throws(ImageCodecError) -> Data {
        try await bandedPNG(image.pixels, width: image.width, height: image.height, channels: 4, maximumBands: maximumBands)
    }

    /// A mask's PNG in bands (see the image overload).
    @concurrent
    public static func concurrentPNG(_ mask: Mask, maximumBands: Int = defaultBands) async throws(ImageCodecError) -> Data {
        try await bandedPNG(mask.values, width: mask.width, height: mask.height, channels: 1, maximumBands: maximumBands)
    }

    /// One band per core.
    public static var defaultBands: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// A band's compressed bytes and what the assembly needs to know of its filtered bytes.
    private struct Band: Sendable {
        var data: Data
        var adler: UInt32
        var filteredLength: Int
    }

    /// - Parameter minimumBandBytes: pixels' bytes per band at least (internal: tests split small images).
    static func bandedPNG(_ pixels: [UInt8], width: Int, height: Int, channels: Int, maximumBands: Int,
                          minimumBandBytes: Int = 1 << 20) async throws(ImageCodecError) -> Data {
        try checkEncodable(pixels, width: width, height: height, channels: channels)
        // At least a megabyte of pixels per band: below that the split costs more than it saves.
        let count = max(1, min(maximumBands, height, pixels.count / max(1, minimumBandBytes)))
        let rows = (0...count).map { height * $0 / count }
        let bands = try await concurrentMap(0..<count) { index throws(ImageCodecError) -> Band in
            try deflateBand(pixels, width: width, channels: channels, rows: rows[index]..<rows[index + 1],
                            last: index == count - 1)
        }
        return try assemble(bands, width: width, height: height, channels: channels)
    }

    /// A non-empty image whose pixels fill it, small enough for the C encoder's int sizes.
    private static func checkEncodable(_ pixels: [UInt8], width: Int, height: Int, channels: Int) throws(ImageCodecError) {
        guard width > 0, height > 0, pixels.count == width * height * channels, pixels.count <= Int32.max else {
            throw .encodingFailed("cannot encode a \(width)×\(height) image of \(pixels.count) bytes")
        }
    }

    /// The whole image as one band.
    private static func onePassPNG(_ pixels: [UInt8], width: Int, height: Int, channels: Int,
                                   zlibBaseline: Bool = false) throws(ImageCodecError) -> Data {
        try checkEncodable(pixels, width: width, height: height, channels: channels)
        let band = try deflateBand(pixels, width: width, channels: channels, rows: 0..<height, last: true,
                                   zlibBaseline: zlibBaseline)
        return try assemble([band], width: width, height: height, channels: channels)
    }

    /// As `png(_:)` on one core, deflated by zlib's run-length strategy instead of our encoder: the
    /// baseline of `stickers-bench png`.
    @_spi(Benchmarks)
    public static func pngThroughZlib(_ image: Image) throws(ImageCodecError) -> Data {
        try onePassPNG(image.pixels, width: image.width, height: image.height, channels: 4, zlibBaseline: true)
    }

    private static func deflateBand(_ pixels: [UInt8], width: Int, channels: Int, rows: Range<Int>,
                                    last: Bool, zlibBaseline: Bool = false) throws(ImageCodecError) -> Band {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0, filteredLength = 0
        var adler: UInt32 = 0
        var status = sic_status()
        _ = pixels.withUnsafeBufferPointer {
            sic_png_deflate_rows($0.baseAddress, Int32(width), Int32(channels), Int32(rows.lowerBound), Int32(rows.upperBound),
                                 last ? 1 : 0, zlibBaseline ? 1 : 0, &output, &size, &adler, &filteredLength, &status)
        }
        guard status.code == SIC_OK, let output else { throw status.error() }
        let data = Data(bytesNoCopy: output, count: size, deallocator: .custom { pointer, _ in sic_free(pointer) })
        return Band(data: data, adler: adler, filteredLength: filteredLength)
    }

    private static func assemble(_ bands: [Band], width: Int, height: Int, channels: Int) throws(ImageCodecError) -> Data {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var status = sic_status()
        let sizes = bands.map(\.data.count), adlers = bands.map(\.adler), lengths = bands.map(\.filteredLength)
        // Each band's bytes stay pinned while the C function copies them.
        func withPointers(_ index: Int, _ pointers: [UnsafePointer<UInt8>?], _ body: ([UnsafePointer<UInt8>?]) -> Void) {
            guard index < bands.count else { return body(pointers) }
            bands[index].data.withUnsafeBytes { raw in
                withPointers(index + 1, pointers + [raw.bindMemory(to: UInt8.self).baseAddress], body)
            }
        }
        withPointers(0, []) { pointers in
            _ = sic_png_assemble(Int32(width), Int32(height), Int32(channels), pointers, sizes, adlers, lengths,
                                 Int32(bands.count), &output, &size, &status)
        }
        guard status.code == SIC_OK, let output else { throw status.error() }
        return Data(bytesNoCopy: output, count: size, deallocator: .custom { pointer, _ in sic_free(pointer) })
    }
}
