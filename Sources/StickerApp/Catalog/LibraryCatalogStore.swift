import Foundation
import SpacePhotos
import StickerLibrary

/// The catalog's memory in the library database: favourites survive a restart, and the photos
/// the API answered are there to show (with a note) when it cannot be reached. Each photo is kept
/// as the API's own JSON, so nothing is lost between versions of `SpacePhoto`.
public final class LibraryCatalogStore: CatalogStore {
    private let library: StickerLibrary

    public init(library: StickerLibrary) {
        self.library = library
    }

    public func favorites() async throws -> [SpacePhoto] {
        try await library.spaceFavorites().compactMap { Self.photo(fromJSON: $0.json) }
    }

    public func setFavorites(_ photos: [SpacePhoto]) async throws {
        let records = try photos.enumerated().map { position, photo in
            SpaceFavoriteRecord(date: photo.day, json: try Self.json(of: photo), position: position)
        }
        try await library.setSpaceFavorites(records)
    }

    public func rememberSeen(_ photos: [SpacePhoto]) async throws {
        let records = try photos.map { CatalogEntryRecord(date: $0.day, json: try Self.json(of: $0)) }
        try await library.recordCatalogEntries(records)
    }

    public func seenPhotos(days: Set<String>?) async throws -> [SpacePhoto] {
        try await library.catalogEntries()
            .filter { days?.contains($0.date) ?? true }
            .compactMap { Self.photo(fromJSON: $0.json) }
    }

    private static func json(of photo: SpacePhoto) throws -> String {
        String(decoding: try JSONEncoder().encode(photo), as: UTF8.self)
    }

    /// A row that no longer decodes (written by another version) is skipped, never a crash.
    private static func photo(fromJSON json: String) -> SpacePhoto? {
        try? JSONDecoder().decode(SpacePhoto.self, from: Data(json.utf8))
    }
}
