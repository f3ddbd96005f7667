import Foundation

/// The image formats a saved space photo may have, told by their first bytes: a URL's extension or
/// a Content-Type header can lie (an "image" link may lead to an HTML page).
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp

    public init?(sniffing data: Data) {
        let head = [UInt8](data.prefix(12))
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("GIF8".utf8)) {
            self = .gif
        } else if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else {
            return nil
        }
    }

    public var fileExtension: String {
        self == .jpeg ? "jpg" : rawValue
    }
}
