import Foundation

/// A decoded API answer: the photos that could be read, plus why the others could not.
///
/// The API answers one object (a single `date`) or an array (`count`, date ranges). One broken
/// item must not cost the whole page, so each item is decoded on its own and a failure becomes a
/// `SkippedItem` with a readable reason.
public struct SpacePhotoPage: Sendable, Equatable {
    public var photos: [SpacePhoto]
    public var skipped: [SkippedItem]

    public init(photos: [SpacePhoto], skipped: [SkippedItem] = []) {
        self.photos = photos
        self.skipped = skipped
    }

    /// Decodes an API body. Throws `.malformedResponse` only when the body as a whole is not
    /// JSON of the expected shape (an object or an array of objects).
    public static func decode(_ data: Data) throws(APODError) -> SpacePhotoPage {
        let items: [LossyItem]
        do {
            items = try JSONDecoder().decode(PageShape.self, from: data).items
        } catch {
            throw .malformedResponse(Self.describe(error))
        }
        var page = SpacePhotoPage(photos: [])
        var seen = Set<SpacePhoto.ID>()
        for (index, item) in items.enumerated() {
            switch item.result {
            case .success(let photo):
                // Identifiable ids must be unique for a list; a repeated day adds nothing.
                if seen.insert(photo.id).inserted {
                    page.photos.append(photo)
                } else {
                    page.skipped.append(SkippedItem(index: index, label: photo.day, reason: "duplicate day"))
                }
            case .failure(let skipped):
                page.skipped.append(SkippedItem(index: index, label: skipped.label, reason: skipped.reason))
            }
        }
        return page
    }

    /// Turns a `DecodingError` into one line a person can act on.
    static func describe(_ error: any Error) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return "missing field '\(key.stringValue)'"
        case DecodingError.valueNotFound(_, let context):
            return "field '\(path(context.codingPath))' is null"
        case DecodingError.typeMismatch(let type, let context):
            let field = path(context.codingPath)
            return field.isEmpty ? "expected \(type)" : "field '\(field)' is not a \(type)"
        case DecodingError.dataCorrupted(let context):
            let field = path(context.codingPath)
            if context.codingPath.isEmpty {
                return "not JSON (\(context.underlyingError.map { "\($0)" } ?? context.debugDescription))"
            }
            return "field '\(field)': \(context.debugDescription)"
        default:
            return "\(error)"
        }
    }
}

/// An item of a page that could not be read, and why.
public struct SkippedItem: Sendable, Equatable, CustomStringConvertible {
    /// Position in the page (0 for a single-object answer).
    public var index: Int
    /// The item's day or title when those could be read, to find it again.
    public var label: String?
    public var reason: String

    public var description: String {
        "item \(index)\(label.map { " (\($0))" } ?? ""): \(reason)"
    }
}

/// One array element, decoded without ever throwing so the array decoding continues.
private struct LossyItem: Decodable {
    let result: Result<SpacePhoto, Failure>

    struct Failure: Error {
        let label: String?
        let reason: String
    }

    /// Just enough to name a broken item in the log.
    private struct Label: Decodable {
        let date: String?
        let title: String?
    }

    init(from decoder: any Decoder) throws {
        do {
            result = .success(try SpacePhoto(from: decoder))
        } catch {
            let label = try? Label(from: decoder)
            result = .failure(Failure(
                label: label?.date ?? label?.title,
                reason: SpacePhotoPage.describe(error)
            ))
        }
    }
}

/// The API's two answer shapes: one object or an array of them.
private struct PageShape: Decodable {
    let items: [LossyItem]

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let many = try? container.decode([LossyItem].self) {
            items = many
        } else {
            // Not an array: it must be one object; let a wrong shape fail with its own message.
            _ = try decoder.container(keyedBy: AnyKey.self)
            items = [try container.decode(LossyItem.self)]
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
