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
