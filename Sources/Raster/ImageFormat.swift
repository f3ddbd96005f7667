import Foundation

/// A container format, recognised by its magic bytes (never by a file extension).
public enum ImageFormat: String, Sendable, Hashable {
    case jpeg
    case png

    /// The format the data starts like, or `nil`.
    public static func sniff(_ data: Data) -> ImageFormat? {
        var prefix = [UInt8](repeating: 0, count: 8)
        let count = min(8, data.count)
        data.copyBytes(to: &prefix, from: data.startIndex..<data.startIndex + count)
        if count >= 3, prefix[0] == 0xFF, prefix[1] == 0xD8, prefix[2] == 0xFF { return .jpeg }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if count >= 4, prefix[0..<count].elementsEqual(png[0..<count]) { return .png }
        return nil
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
