import CLazyWebP
import Foundation

/// WebP through the system's libwebp, loaded at the first use (see CLazyWebP/lazy_webp.c for why
/// at run time). Every call reports a missing library as `ImageCodecError.codecUnavailable`.
public enum WebP {
    /// How to encode: lossless, or lossy at a quality, and how hard libwebp should try.
    public struct Settings: Sendable, Hashable {
        public var lossless: Bool
        /// Lossy: 0…100 quality. Lossless: effort (0 fastest … 100 smallest).
        public var quality: Float
        /// 0 (fastest) … 6 (smallest).
        public var method: Int
        /// Keep the RGB under fully transparent pixels as given (else libwebp smooths it for size and clean edges).
        public var exact: Bool
        /// libwebp's sharper, slower RGB→YUV (lossy only): crisper coloured edges.
        public var sharpYUV: Bool

        public init(lossless: Bool, quality: Float, method: Int = 4, exact: Bool = false, sharpYUV: Bool = false) {
            self.lossless = lossless
            self.quality = quality
            self.method = method
            self.exact = exact
            self.sharpYUV = sharpYUV
        }

        public static func lossy(quality: Float, method: Int = 4) -> Settings {
            Settings(lossless: false, quality: quality, method: method)
        }
    }

    /// Whether libwebp can be loaded; the error says why not.
    public static func checkAvailable() throws(ImageCodecError) {
        var message = Message()
        let status = message.withPointer { lw_load($0) }
        guard status == Int32(LW_OK) else { throw .codecUnavailable(message.text) }
    }

    /// The loaded libwebp's version, e.g. "1.2.4" (nil when it cannot be loaded).
    public static var libraryVersion: String? {
        let version = Int(lw_encoder_version())
        guard version > 0 else { return nil }
        return "\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
    }

    /// Width and height from the header.
    public static func size(of data: Data) throws(ImageCodecError) -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        var message = Message()
        let status = withBytes(data) { base, count in
            message.withPointer { lw_get_info(base, count, &width, &height, $0) }
        }
        try check(status, message)
        return (Int(width), Int(height))
    }

    /// Decodes to straight-alpha RGBA (an opaque WebP gets alpha 255). Animated WebP is refused
    /// (`.animated`: libwebp's still decoder would call it corrupt).
    public static func decode(_ data: Data, limits: DecodingLimits = .default) throws(ImageCodecError) -> Image {
        if isAnimated(data) { throw .animated }
        let (width, height) = try size(of: data)
        guard width * height <= limits.maxPixelCount else { throw .tooLarge(width: width, height: height) }
        let count = width * height * 4
        var message = Message()
        var status = Int32(LW_OK)
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            status = withBytes(data) { base, size in
                message.withPointer {
                    lw_decode_rgba(base, size, buffer.baseAddress, count, Int32(width), Int32(height), $0)
                }
            }
            initialized = status == Int32(LW_OK) ? count : 0
        }
        try check(status, message)
        return Image(width: width, height: height, pixels: pixels)
    }

    /// Whether `data` is an animated WebP: RIFF `WEBP` whose first chunk is an extended header
    /// (`VP8X`) with the animation flag set.
    public static func isAnimated(_ data: Data) -> Bool {
        let bytes = [UInt8](data.prefix(21))
        return bytes.count == 21 && bytes[0..<4].elementsEqual("RIFF".utf8) && bytes[8..<12].elementsEqual("WEBP".utf8)
            && bytes[12..<16].elementsEqual("VP8X".utf8) && bytes[20] & 0x02 != 0
    }

    /// Encodes `image` (straight alpha) with `settings`.
    public static func encode(_ image: Image, _ settings: Settings) throws(ImageCodecError) -> Data {
        var raw = lw_settings(lossless: settings.lossless ? 1 : 0, quality: min(max(settings.quality, 0), 100),
                              method: Int32(min(max(settings.method, 0), 6)), exact: settings.exact ? 1 : 0,
                              sharp_yuv: settings.sharpYUV ? 1 : 0)
        return try encoded(image) { pixels, output, size, message in
            lw_encode_rgba(pixels, Int32(image.width), Int32(image.height), Int32(image.width * 4), &raw, output, size, message)
        }
    }

    /// libwebp's one-call lossless encoder (WebPEncodeLosslessRGBA), the baseline benchmarks compare with.
    public static func encodeLosslessOneCall(_ image: Image) throws(ImageCodecError) -> Data {
        try encoded(image) { pixels, output, size, message in
            lw_encode_lossless_simple(pixels, Int32(image.width), Int32(image.height), Int32(image.width * 4), output, size, message)
        }
    }

    // MARK: - Plumbing

    private static func encoded(
        _ image: Image,
        _ call: (UnsafePointer<UInt8>?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
                 UnsafeMutablePointer<Int>, UnsafeMutablePointer<CChar>) -> Int32
    ) throws(ImageCodecError) -> Data {
        guard image.width > 0, image.height > 0 else { throw .encodingFailed("an empty image") }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = Message()
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            message.withPointer { call(pixels.baseAddress, &output, &size, $0) }
        }
        try check(status, message, encoding: true)
        guard let output else { throw .encodingFailed("libwebp returned no data") }
        return Data(bytesNoCopy: output, count: size, deallocator: .free)
    }

    private static func check(_ status: Int32, _ message: Message, encoding: Bool = false) throws(ImageCodecError) {
        switch status {
        case Int32(LW_OK): return
        case Int32(LW_UNAVAILABLE): throw .codecUnavailable(message.text)
        default: throw encoding ? .encodingFailed(message.text) : .corrupt(message.text)
        }
    }

    private static func withBytes(_ data: Data, _ body: (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32 {
        data.withUnsafeBytes { body($0.baseAddress?.assumingMemoryBound(to: UInt8.self), $0.count) }
    }

    /// A C message buffer.
    private struct Message {
        var bytes = [CChar](repeating: 0, count: Int(LW_MESSAGE_CAPACITY))
        mutating func withPointer(_ body: (UnsafeMutablePointer<CChar>) -> Int32) -> Int32 {
            bytes.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
        }
        var text: String { String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }
}
