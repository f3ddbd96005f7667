import Foundation
import Raster

extension SpacePhoto {
    /// The still image to save for this photo, or nil when there is none: an image's picture
    /// (its HD version when `hd` and the API has one); a video's thumbnail (videos themselves are
    /// listed but never saved); nothing for other media.
    public func imageURL(hd: Bool) -> URL? {
        switch mediaType {
        case .image: hd ? (hdurl ?? url) : url
        case .video: thumbnailURL
        case .other: nil
        }
    }

    /// Why `imageURL(hd:)` is nil, for a message.
    public var unsavableReason: String? {
        switch mediaType {
        case .image: nil
        case .video: thumbnailURL == nil ? "a video without a thumbnail" : nil
        case .other: "not a picture (\(url.absoluteString))"
        }
    }

    /// A file name that says what the file is and sorts by day:
    /// `apod-2024-01-02-the-horsehead-nebula[-hd|-thumbnail].jpg`.
    public func fileName(hd: Bool, format: ImageFormat) -> String {
        var name = "apod-\(day)"
        let slug = Self.slug(title)
        if !slug.isEmpty { name += "-\(slug)" }
        if mediaType == .video {
            name += "-thumbnail"
        } else if hd, hdurl != nil {
            name += "-hd"
        }
        return "\(name).\(format.fileExtension)"
    }

    /// Lowercase ASCII letters and digits joined by single dashes, at most 60 characters.
    static func slug(_ text: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                if pendingDash, !slug.isEmpty { slug.append("-") }
                pendingDash = false
                slug.unicodeScalars.append(scalar)
            } else {
                pendingDash = true
            }
            if slug.count >= 60 { break }
        }
        return slug
    }
}
