import CImageCodecs
import Foundation

/// Why an image could not be decoded or encoded. Every malformed input ends here, never in a trap.
public enum ImageCodecError: Error, Sendable, Hashable, Codable {
    case empty
    case unsupportedFormat
    case truncated
    case corrupt(String)
    case tooLarge(width: Int, height: Int)
    case encodingFailed(String)
    /// The codec library this format needs cannot be used (libwebp missing): says why and what to install.
    case codecUnavailable(String)
    /// An animation (animated WebP) where one picture was wanted.
    case animated
}

/// Limits checked from the header before any pixel memory is allocated.
public struct DecodingLimits: Sendable, Hashable {
    public var maxPixelCount: Int
    public static let `default` = DecodingLimits(maxPixelCount: 100_000_000)
    public init(maxPixelCount: Int) { self.maxPixelCount = maxPixelCount }
}

/// Decodes JPEG, PNG and WebP data into an `Image`, EXIF orientation applied.
///
/// The format comes from the magic bytes. The pixel limit applies to the full-size header
/// dimensions, even when a JPEG is decoded scaled down, and is checked before pixels are allocated.
/// EXIF orientation is read from a JPEG's APP1 segment (a PNG's rare eXIf chunk is not read).
public enum ImageDecoder {
    /// - Parameter maxDimension: when set, a JPEG is decoded at the smallest DCT scale (1/1, 1/2,
    ///   1/4, 1/8) whose longer side is still at least `maxDimension`; PNGs decode at full size.
    public static func decode(_ data: Data, maxDimension: Int? = nil,
                              limits: DecodingLimits = .default) throws(ImageCodecError) -> Image {
        switch try format(of: data) {
        case .jpeg:
            return try withBytes(data) { bytes throws(ImageCodecError) in
                let header = try jpegHeader(bytes)
                let denominator = JPEGScale.denominator(width: Int(header.width), height: Int(header.height),
                                                        maxDimension: maxDimension)
                let stored = try decodeJPEG(bytes, scaleDenominator: denominator, limits: limits)
                return stored.oriented(ExifOrientation.read(fromJPEG: bytes))
            }
        case .png:
            return try withBytes(data) { bytes throws(ImageCodecError) in
                let (width, height, pixels) = try decodePNG(bytes, output: SIC_OUTPUT_RGBA, limits: limits)
                return Image(width: width, height: height, pixels: pixels)
            }
        case .webp:
            return try WebP.decode(data, limits: limits)
        case .gif:
            throw .unsupportedFormat
        }
    }

    /// Decodes a greyscale picture (typically an 8-bit grey PNG alpha mask). Colour sources are
    /// reduced to luminance (Rec. 709 weights, as libpng does); alpha is ignored.
    public static func decodeMask(_ data: Data, limits: DecodingLimits = .default) throws(ImageCodecError) -> Mask {
        switch try format(of: data) {
        case .png:
            return try withBytes(data) { bytes throws(ImageCodecError) in
                let (width, height, values) = try decodePNG(bytes, output: SIC_OUTPUT_GREY, limits: limits)
                return Mask(width: width, height: height, values: values)
            }
        case .jpeg, .gif, .webp:
            return try decode(data, limits: limits).luminance()
        }
    }

    /// Format, display size and orientation, from the header alone.
    public static func info(_ data: Data) throws(ImageCodecError) -> ImageInfo {
        let format = try format(of: data)
        if format == .webp {
            let (width, height) = try WebP.size(of: data)
            return ImageInfo(format: .webp, width: width, height: height, orientation: .up)
        }
        return try withBytes(data) { bytes throws(ImageCodecError) in
            var header = sic_header()
            var status = sic_status()
            let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            switch format {
            case .jpeg: sic_jpeg_read_header(base, bytes.count, &header, &status)
            case .png: sic_png_read_header(base, bytes.count, &header, &status)
            case .webp: break  // answered above
            case .gif: throw .unsupportedFormat
            }
            guard status.code == SIC_OK else { throw status.error() }
            let orientation = format == .jpeg ? ExifOrientation.read(fromJPEG: bytes) : .up
            let (width, height) = orientation.swapsDimensions
                ? (Int(header.height), Int(header.width)) : (Int(header.width), Int(header.height))
            return ImageInfo(format: format, width: width, height: height, orientation: orientation)
        }
    }

    // MARK: - Plumbing

    private static func format(of data: Data) throws(ImageCodecError) -> ImageFormat {
        if data.isEmpty { throw .empty }
        guard let format = ImageFormat.sniff(data) else {
            throw ImageFormat.isCutOffSignature(data) ? .truncated : .unsupportedFormat
        }
        return format
    }

    /// Runs `body` with the data's bytes pinned (the C decoders keep pointers into them).
    private static func withBytes<T>(_ data: Data,
                                     _ body: (UnsafeRawBufferPointer) throws(ImageCodecError) -> T) throws(ImageCodecError) -> T {
        let result: Result<T, ImageCodecError> = data.withUnsafeBytes { bytes in
            do throws(ImageCodecError) { return .success(try body(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    private static func jpegHeader(_ bytes: UnsafeRawBufferPointer) throws(ImageCodecError) -> sic_header {
        var header = sic_header()
        var status = sic_status()
        sic_jpeg_read_header(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &header, &status)
        guard status.code == SIC_OK else { throw status.error() }
        return header
    }

    private static func decodeJPEG(_ bytes: UnsafeRawBufferPointer, scaleDenominator: Int,
                                   limits: DecodingLimits) throws(ImageCodecError) -> Image {
        var status = sic_status()
        var width: Int32 = 0, height: Int32 = 0
        guard let decoder = sic_jpeg_begin(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                                           Int32(scaleDenominator), UInt64(max(0, limits.maxPixelCount)),
                                           &width, &height, &status)
        else { throw status.error(width: Int(width), height: Int(height)) }
        let count = Int(width) * Int(height) * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            sic_jpeg_finish(decoder, buffer.baseAddress, &status)
            initialized = count  // every byte is written, even for a truncated scan (grey padding)
        }
        guard status.code == SIC_OK else { throw status.error() }
        return Image(width: Int(width), height: Int(height), pixels: pixels)
    }

    private static func decodePNG(_ bytes: UnsafeRawBufferPointer, output: sic_output,
                                  limits: DecodingLimits) throws(ImageCodecError) -> (Int, Int, [UInt8]) {
        var status = sic_status()
        var width: Int32 = 0, height: Int32 = 0
        guard let decoder = sic_png_begin(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                                          output, UInt64(max(0, limits.maxPixelCount)), &width, &height, &status)
        else { throw status.error(width: Int(width), height: Int(height)) }
        let count = Int(width) * Int(height) * (output == SIC_OUTPUT_GREY ? 1 : 4)
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            sic_png_finish(decoder, buffer.baseAddress, &status)
            initialized = status.code == SIC_OK ? count : 0
        }
        guard status.code == SIC_OK else { throw status.error() }
        return (Int(width), Int(height), pixels)
    }
}

/// libjpeg-turbo's DCT-domain scaling: decoding at 1/2, 1/4 or 1/8 skips most of the IDCT work.
enum JPEGScale {
    /// The largest denominator (so the smallest decode) whose longer side is still ≥ `maxDimension`.
    static func denominator(width: Int, height: Int, maxDimension: Int?) -> Int {
        guard let maxDimension, maxDimension > 0 else { return 1 }
        let longer = max(width, height)
        for denominator in [8, 4, 2] where (longer + denominator - 1) / denominator >= maxDimension {
            return denominator
        }
        return 1
    }
}
