import AtomicFiles
import ErrorReasons
import Foundation
import GRDB
import StickerKit

/// Everything the app keeps between runs: the photos chosen, what each became, the colour-scheme
/// history and favourites, saved space photos, catalog entries seen and packs exported, in one
/// SQLite database (`library.sqlite`), beside the content-addressed image files it references
/// (`files/`).
///
/// Sendable and safe to share: GRDB's pool serialises writes and runs reads concurrently; each
/// method is one transaction, run off the caller's actor.
public final class StickerLibrary: Sendable {
    public let folder: URL
    public let files: ContentStore
    let database: LibraryDatabase

    public var databasePath: String { database.path }

    /// Opens the library in `folder` (creating the folder and an empty library when absent).
    /// A damaged or unreadable database throws, naming the file, and is left untouched.
    public convenience init(folder: URL) throws(LibraryError) {
        try self.init(folder: folder, adjust: { _ in })
    }

    /// `adjust` changes the database's configuration (tests: a "full disk", a read-only file).
    init(folder: URL, adjust: (inout Configuration) -> Void) throws(LibraryError) {
        let path = folder.appending(path: LibraryDatabase.fileName).path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .unavailable(path: path, reason: ErrorReason.of(error))
        }
        if FileManager.default.fileExists(atPath: path), !FileManager.default.isReadableFile(atPath: path) {
            throw .unavailable(path: path, reason: "permission denied")
        }
        self.folder = folder
        self.files = ContentStore(folder: folder.appending(path: "files", directoryHint: .isDirectory))
        self.database = try LibraryDatabase.open(path: path, adjust: adjust)
        // What a process killed while writing here left behind (whole files only are ever named
        // by the database: a leftover is never one of its files).
        AtomicFileWriter.removeLeftovers(in: folder)
        files.removeLeftovers()
    }

    private func write<T: Sendable>(_ updates: @escaping @Sendable (Database) throws -> T) async throws(LibraryError) -> T {
        do {
            return try await database.pool.write(updates)
        } catch {
            throw LibraryDatabase.classify(error, path: database.path)
        }
    }

    private func read<T: Sendable>(_ value: @escaping @Sendable (Database) throws -> T) async throws(LibraryError) -> T {
        do {
            return try await database.pool.read(value)
        } catch {
            throw LibraryDatabase.classify(error, path: database.path)
        }
    }

    // MARK: Photos

    /// The photos in selection order.
    public func photos() async throws(LibraryError) -> [LibraryPhoto] {
        try await read { db in try LibraryPhoto.order(Column("position"), Column("addedAt")).fetchAll(db) }
    }

    /// Adds photos after the existing ones (or updates them, same id).
    public func addPhotos(_ photos: [LibraryPhoto]) async throws(LibraryError) {
        try await write { db in
            let next = try Int.fetchOne(db, sql: "SELECT COALESCE(MAX(position) + 1, 0) FROM photo") ?? 0
            for (offset, var photo) in photos.enumerated() {
                photo.position = next + offset
                try photo.upsert(db)
            }
        }
    }

    public func removePhotos(_ ids: [UUID]) async throws(LibraryError) {
        try await write { db in _ = try LibraryPhoto.deleteAll(db, keys: ids) }
    }

    public func removeAllPhotos() async throws(LibraryError) {
        try await write { db in _ = try LibraryPhoto.deleteAll(db) }
    }

    // MARK: Results

    /// Records what photos became (replacing an earlier record for the same digest and identity).
    public func recordResults(_ results: [LibraryResult]) async throws(LibraryError) {
        try await write { db in for result in results { try result.upsert(db) } }
    }

    /// The results made under `identity`, by photo digest.
    public func results(identity: String) async throws(LibraryError) -> [String: LibraryResult] {
        let rows = try await read { db in try LibraryResult.filter(Column("identity") == identity).fetchAll(db) }
        return Dictionary(rows.map { ($0.photoDigest, $0) }, uniquingKeysWith: { a, _ in a })
    }

    // MARK: Colour schemes

    /// The history, newest first, at most `limit`, plus every favourite.
    public func colorSchemes(limit: Int = 50) async throws(LibraryError) -> (history: [LibraryColorScheme], favorites: [LibraryColorScheme]) {
        try await read { db in
            let history = try LibraryColorScheme.order(Column("createdAt").desc).limit(limit).fetchAll(db)
            let favorites = try LibraryColorScheme.filter(Column("favoritedAt") != nil).order(Column("favoritedAt").desc).fetchAll(db)
            return (history, favorites)
        }
    }

    public func saveColorScheme(_ scheme: LibraryColorScheme) async throws(LibraryError) {
        try await write { db in try scheme.upsert(db) }
    }

    public func setFavorite(_ id: UUID, _ favorite: Bool) async throws(LibraryError) {
        try await write { db in
            _ = try LibraryColorScheme.filter(key: id).updateAll(db, Column("favoritedAt").set(to: favorite ? Date() : nil))
        }
    }

    // MARK: Space photos and catalog entries

    public func saveSpacePhoto(_ photo: SavedSpacePhoto) async throws(LibraryError) {
        try await write { db in try photo.upsert(db) }
    }

    public func savedSpacePhotos() async throws(LibraryError) -> [SavedSpacePhoto] {
        try await read { db in try SavedSpacePhoto.order(Column("savedAt").desc).fetchAll(db) }
    }

    public func recordCatalogEntries(_ entries: [CatalogEntryRecord]) async throws(LibraryError) {
        try await write { db in for entry in entries { try entry.upsert(db) } }
    }

    public func catalogEntries() async throws(LibraryError) -> [CatalogEntryRecord] {
        try await read { db in try CatalogEntryRecord.order(Column("date").desc).fetchAll(db) }
    }

    /// The Space tab's favourites, in their order.
    public func spaceFavorites() async throws(LibraryError) -> [SpaceFavoriteRecord] {
        try await read { db in try SpaceFavoriteRecord.order(Column("position")).fetchAll(db) }
    }

    /// Replaces the favourites with `favorites`, in one transaction.
    public func setSpaceFavorites(_ favorites: [SpaceFavoriteRecord]) async throws(LibraryError) {
        try await write { db in
            try SpaceFavoriteRecord.deleteAll(db)
            for favorite in favorites { try favorite.insert(db) }
        }
    }

    // MARK: Packs

    public func recordPack(_ pack: ExportedPack) async throws(LibraryError) {
        try await write { db in
            var pack = pack
            try pack.insert(db)
        }
    }

    public func packs() async throws(LibraryError) -> [ExportedPack] {
        try await read { db in try ExportedPack.order(Column("createdAt").desc).fetchAll(db) }
    }
}
