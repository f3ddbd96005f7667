import Foundation

/// A container format, recognised by its magic bytes (never by a file extension).
public enum ImageFormat: String, Sendable, Hashable {
    case jpeg
    case png

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    private static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]

    /// The format whose magic bytes the data starts with, or `nil`.
    public static func sniff(_ data: Data) -> ImageFormat? {
        let prefix = [UInt8](data.prefix(8))
        if prefix.starts(with: jpegSignature) { return .jpeg }
        if prefix.starts(with: pngSignature) { return .png }
        return nil
    }

    /// Whether the data is too short to tell, but everything it has matches a known signature
    /// (so it was most likely cut off, rather than being something else).
    static func isCutOffSignature(_ data: Data) -> Bool {
        let prefix = [UInt8](data.prefix(8))
        guard !prefix.isEmpty else { return false }
        return (prefix.count < jpegSignature.count && jpegSignature.starts(with: prefix))
            || (prefix.count < pngSignature.count && pngSignature.starts(with: prefix))
    }
}

/// What the header says, read without decoding pixels.
public struct ImageInfo: Sendable, Hashable {
    public var format: ImageFormat
    /// Display size: the stored size with the EXIF orientation applied (width and height swapped
    /// for the four orientations that turn the picture by 90°).
    public var width: Int
    public var height: Int
    public var orientation: ExifOrientation

    public init(format: ImageFormat, width: Int, height: Int, orientation: ExifOrientation) {
        self.format = format
        self.width = width
        self.height = height
        self.orientation = orientation
    }
}
