import Foundation

/// A container format, recognised by its magic bytes (never by a file extension or a Content-Type
/// header, which can lie: an "image" link may lead to an HTML page). The one sniffer of the
/// package: the decoder, the web app's uploads and responses and the space-photo client use it.
/// Recognised is not decodable: see `isDecodable`.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    case jpeg, png, gif, webp

    /// The bytes a file of this format starts with; `nil` matches any byte (WebP's RIFF size).
    private var signature: [UInt8?] {
        switch self {
        case .jpeg: [0xFF, 0xD8, 0xFF]
        case .png: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        case .gif: Array("GIF8".utf8)
        case .webp: Array("RIFF".utf8) + [nil, nil, nil, nil] + Array("WEBP".utf8)
        }
    }

    /// Whether `ImageDecoder` reads this format; the others are only recognised (a space photo
    /// may be a GIF, saved as it came).
    public var isDecodable: Bool {
        switch self {
        case .jpeg, .png, .webp: true
        case .gif: false
        }
    }

    /// The media type, for a Content-Type header.
    public var mimeType: String { "image/\(rawValue)" }

    /// The file name extensions this format goes by (lowercase, no dot), the usual one first.
    public var fileExtensions: [String] {
        switch self {
        case .jpeg: ["jpg", "jpeg", "jpe", "jfif"]
        case .png, .gif, .webp: [rawValue]
        }
    }

    /// The usual file name extension, without the dot.
    public var fileExtension: String { fileExtensions[0] }

    /// The format whose magic bytes the data starts with, or `nil`.
    public static func sniff(_ data: Data) -> ImageFormat? {
        let head = [UInt8](data.prefix(16))
        return allCases.first { format in
            let signature = format.signature
            return head.count >= signature.count && zip(signature, head).allSatisfy { $0 == nil || $0 == $1 }
        }
    }

    /// Whether the data is too short to tell, but everything it has matches a decodable format's
    /// signature (so it was most likely cut off, rather than being something else).
    static func isCutOffSignature(_ data: Data) -> Bool {
        let head = [UInt8](data.prefix(16))
        guard !head.isEmpty else { return false }
        return allCases.contains { format in
            let signature = format.signature
            return format.isDecodable && head.count < signature.count
                && zip(signature, head).allSatisfy { $0 == nil || $0 == $1 }
        }
    }
}
