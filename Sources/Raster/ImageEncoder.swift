import CImageCodecs
import Foundation

/// Encodes images as PNG (RGBA or 8-bit grey) and JPEG.
public enum ImageEncoder {
    /// An 8-bit RGBA PNG.
    public static func png(_ image: Image) throws(ImageCodecError) -> Data {
        try encode(image.pixels) { pixels, out, size, status in
            sic_png_encode(pixels, Int32(image.width), Int32(image.height), 4, out, size, status)
        }
    }

    /// An 8-bit greyscale PNG (the format of alpha masks).
    public static func png(_ mask: Mask) throws(ImageCodecError) -> Data {
        try encode(mask.values) { pixels, out, size, status in
            sic_png_encode(pixels, Int32(mask.width), Int32(mask.height), 1, out, size, status)
        }
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
