import Foundation

/// Why an image could not be decoded or encoded. Every malformed input ends here, never in a trap.
public enum ImageCodecError: Error, Sendable, Equatable {
    case empty
    case unsupportedFormat
    case truncated
    case corrupt(String)
    case tooLarge(width: Int, height: Int)
    case encodingFailed(String)
}

/// Limits checked from the header before any pixel memory is allocated.
public struct DecodingLimits: Sendable, Hashable {
    public var maxPixelCount: Int
    public static let `default` = DecodingLimits(maxPixelCount: 100_000_000)
    public init(maxPixelCount: Int) { self.maxPixelCount = maxPixelCount }
}

/// Decodes JPEG and PNG data into an `Image`, EXIF orientation applied.
public enum ImageDecoder {
    /// - Parameter maxDimension: when set, a JPEG is decoded at the smallest DCT scale (1/1, 1/2,
    ///   1/4, 1/8) whose longer side is still at least `maxDimension`; PNGs decode at full size.
    public static func decode(_ data: Data, maxDimension: Int? = nil,
                              limits: DecodingLimits = .default) throws(ImageCodecError) -> Image {
        throw .unsupportedFormat // Implemented by the codec work (issue 3).
    }
}
