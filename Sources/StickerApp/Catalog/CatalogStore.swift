import Foundation
import SpacePhotos

/// Where the catalog keeps what outlives a session: the favourite photos, and the photos seen
/// before (shown, with a note, when the API cannot be reached). The library database implements
/// it; `InMemoryCatalogStore` serves tests and a session without a library.
public protocol CatalogStore: AnyObject {
    /// The favourites, most recently added first.
    func favorites() async throws -> [SpacePhoto]
    /// Replaces the favourites (most recently added first).
    func setFavorites(_ photos: [SpacePhoto]) async throws
    /// Remembers photos the API answered, replacing older copies of the same days.
    func rememberSeen(_ photos: [SpacePhoto]) async throws
    /// Photos seen before, newest day first: those of `days` (`yyyy-MM-dd`), or all when nil.
    func seenPhotos(days: Set<String>?) async throws -> [SpacePhoto]
}

/// A `CatalogStore` that forgets everything when the process ends.
public final class InMemoryCatalogStore: CatalogStore {
    private var favoritePhotos: [SpacePhoto] = []
    private var seen: [String: SpacePhoto] = [:]

    public init(favorites: [SpacePhoto] = [], seen: [SpacePhoto] = []) {
        favoritePhotos = favorites
        for photo in seen { self.seen[photo.day] = photo }
    }

    public func favorites() async throws -> [SpacePhoto] { favoritePhotos }
    public func setFavorites(_ photos: [SpacePhoto]) async throws { favoritePhotos = photos }
    public func rememberSeen(_ photos: [SpacePhoto]) async throws {
        for photo in photos { seen[photo.day] = photo }
    }
    public func seenPhotos(days: Set<String>?) async throws -> [SpacePhoto] {
        seen.values.filter { days?.contains($0.day) ?? true }.sorted { $0.day > $1.day }
    }
}
