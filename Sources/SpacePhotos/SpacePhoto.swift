import Foundation

/// One day of a catalog that speaks NASA's Astronomy Picture of the Day (APOD) protocol.
///
/// Decoding follows the API's JSON: `explanation` becomes `description`, `date` is the day as
/// `yyyy-MM-dd` (read as midnight UTC), unknown fields are ignored. Encoding writes the same
/// field names back, so a decoded photo round-trips.
public struct SpacePhoto: Codable, Sendable, Hashable, Identifiable {
    public enum MediaType: String, Codable, Sendable, Hashable {
        case image, video, other

        public init(from decoder: any Decoder) throws {
            // Anything the API adds later ("other" is already in use for interactive pages) is
            // listed as `.other` rather than failing the item.
            self = MediaType(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .other
        }
    }

    public var title: String
    public var description: String
    /// Midnight UTC of the photo's day; `day` gives it back as `yyyy-MM-dd`.
    public var date: Date
    public var url: URL
    public var hdurl: URL?
    public var mediaType: MediaType
    /// A still image for a video (the API sends it when asked with `thumbs=true`).
    public var thumbnailURL: URL?
    public var copyright: String?

    public init(
        title: String,
        description: String,
        date: Date,
        url: URL,
        hdurl: URL? = nil,
        mediaType: MediaType = .image,
        thumbnailURL: URL? = nil,
        copyright: String? = nil
    ) {
        self.title = title
        self.description = description
        self.date = date
        self.url = url
        self.hdurl = hdurl
        self.mediaType = mediaType
        self.thumbnailURL = thumbnailURL
        self.copyright = copyright
    }

    /// APOD publishes one photo a day, so the day is the identity.
    public var id: String { day }

    /// The photo's day as the API writes it, `yyyy-MM-dd`.
    public var day: String { APODDay.string(from: date) }

    enum CodingKeys: String, CodingKey {
        case title, explanation, date, url, hdurl, copyright
        case mediaType = "media_type"
        case thumbnailURL = "thumbnail_url"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decode(String.self, forKey: .title)
        description = try container.decode(String.self, forKey: .explanation)
        let dayString = try container.decode(String.self, forKey: .date)
        guard let date = APODDay.date(from: dayString) else {
            throw DecodingError.dataCorruptedError(
                forKey: .date, in: container, debugDescription: "expected a yyyy-MM-dd day, got '\(dayString)'")
        }
        self.date = date
        url = try Self.decodeURL(.url, in: container)
        hdurl = try Self.decodeOptionalURL(.hdurl, in: container)
        mediaType = try container.decode(MediaType.self, forKey: .mediaType)
        thumbnailURL = try Self.decodeOptionalURL(.thumbnailURL, in: container)
        // The API wraps credits in stray newlines ("\nJane Doe\n").
        let credit = try container.decodeIfPresent(String.self, forKey: .copyright)?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        copyright = credit?.isEmpty == false ? credit : nil
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(description, forKey: .explanation)
        try container.encode(day, forKey: .date)
        try container.encode(url.absoluteString, forKey: .url)
        try container.encodeIfPresent(hdurl?.absoluteString, forKey: .hdurl)
        try container.encode(mediaType, forKey: .mediaType)
        try container.encodeIfPresent(thumbnailURL?.absoluteString, forKey: .thumbnailURL)
        try container.encodeIfPresent(copyright, forKey: .copyright)
    }

    private static func decodeURL(
        _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> URL {
        let text = try container.decode(String.self, forKey: key)
        guard let url = webURL(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "not an http(s) URL: '\(text)'")
        }
        return url
    }

    /// An optional link that is unusable only loses that link, not the whole photo.
    private static func decodeOptionalURL(
        _ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>
    ) throws -> URL? {
        try container.decodeIfPresent(String.self, forKey: key).flatMap(webURL)
    }

    /// Old APOD videos use scheme-relative URLs (`//www.youtube.com/embed/…`): read them as https.
    static func webURL(_ text: String) -> URL? {
        let absolute = text.hasPrefix("//") ? "https:" + text : text
        guard let url = URL(string: absolute), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil
        else { return nil }
        return url
    }
}
