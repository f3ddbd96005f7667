import AtomicFiles
import ErrorReasons
import Foundation
import GRDB
import StickerKit

/// Why the library cannot be opened or written. Always names the file: a person has to be able to
/// find it, move it aside or restore it. A damaged database is never overwritten or recreated.
public enum LibraryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not a SQLite database, or SQLite found it damaged.
    case corrupt(path: String, reason: String)
    /// The file or its folder cannot be read or created (permissions, a full disk…).
    case unavailable(path: String, reason: String)
    /// A read or write failed once open.
    case failed(path: String, reason: String)
    /// One of the library's image files (or a photo imported into it) cannot be written or read.
    case file(path: String, reason: String)

    public var description: String {
        switch self {
        case .corrupt(let path, let reason):
            "the library database \(path) is damaged (\(reason)); it was left untouched: move it aside to start an empty library"
        case .unavailable(let path, let reason): "cannot open the library database \(path): \(reason)"
        case .failed(let path, let reason): "the library database \(path): \(reason)"
        case .file(let path, let reason): "the library's file \(path): \(reason)"
        }
    }
}

/// The library's SQLite database: one `DatabasePool` (WAL: readers never wait for the writer) and
/// its versioned schema. Every write is one transaction, so a crash at any moment leaves it
/// consistent.
struct LibraryDatabase: Sendable {
    let pool: DatabasePool
    let path: String

    static let fileName = "library.sqlite"

    /// Opens (creating when absent) and migrates the database at `path`. `adjust` changes the
    /// configuration: tests make the disk "full" (`PRAGMA max_page_count`) or the file read-only.
    static func open(path: String, adjust: (inout Configuration) -> Void = { _ in }) throws(LibraryError) -> LibraryDatabase {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        adjust(&configuration)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw classify(error, path: path, opening: true)
        }
        do {
            // Each migration is one transaction: a failure (a full disk) leaves the last version
            // complete, and the next open carries on from there.
            try migrator.migrate(pool)
        } catch {
            throw classify(error, path: path, opening: true)
        }
        return LibraryDatabase(pool: pool, path: path)
    }

    /// The schema, one migration per version. Never edit a registered migration: add the next.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(Migration.v1) { db in
            try db.create(table: "photo") { t in
                t.primaryKey("id", .text)
                t.column("digest", .text).notNull().indexed()
                t.column("name", .text).notNull()
                t.column("byteCount", .integer).notNull()
                // upload, folder or space: where the photo came from.
                t.column("origin", .text).notNull()
                // The file it was read from (folder photos), or its copy in the library (uploads).
                t.column("sourcePath", .text)
                t.column("storedFile", .text)
                t.column("position", .integer).notNull()
                t.column("addedAt", .datetime).notNull()
            }
            try db.create(table: "result") { t in
                t.column("photoDigest", .text).notNull()
                // The processor's output identity (engine, model, options).
                t.column("identity", .text).notNull()
                t.column("outcome", .text).notNull()
                t.column("reason", .text)
                t.column("stickerFile", .text)
                t.column("gradientFile", .text)
                t.column("maskFile", .text)
                t.column("colors", .jsonText)
                t.column("createdAt", .datetime).notNull()
                t.primaryKey(["photoDigest", "identity"])
            }
            try db.create(table: "colorScheme") { t in
                t.primaryKey("id", .text)
                t.column("photoName", .text).notNull()
                t.column("colors", .jsonText).notNull()
                t.column("colorCount", .integer).notNull()
                t.column("createdAt", .datetime).notNull()
                t.column("favoritedAt", .datetime)
            }
            try db.create(table: "savedSpacePhoto") { t in
                t.primaryKey("date", .text)
                t.column("title", .text).notNull()
                t.column("file", .text).notNull()
                t.column("url", .text)
                t.column("savedAt", .datetime).notNull()
            }
            try db.create(table: "catalogEntry") { t in
                t.primaryKey("date", .text)
                t.column("json", .jsonText).notNull()
                t.column("seenAt", .datetime).notNull()
            }
        }
        migrator.registerMigration(Migration.v2) { db in
            try db.create(table: "pack") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("path", .text).notNull()
                t.column("stickerCount", .integer).notNull()
                t.column("identity", .text)
                t.column("createdAt", .datetime).notNull()
            }
            try db.create(indexOn: "colorScheme", columns: ["createdAt"])
        }
        migrator.registerMigration(Migration.v3) { db in
            // The Space tab's favourites, in the person's order (most recently added first).
            try db.create(table: "spaceFavorite") { t in
                t.primaryKey("date", .text)
                t.column("json", .jsonText).notNull()
                t.column("position", .integer).notNull()
            }
        }
        migrator.registerMigration(Migration.v4) { db in
            // What the person last saw of a processed photo: the cut-out its sticker is drawn
            // from (a re-cut one when subjects were chosen), the subjects chosen and the style.
            try db.alter(table: "result") { t in
                t.add(column: "cutOutFile", .text)
                t.add(column: "chosenSubjects", .jsonText)
                t.add(column: "style", .jsonText)
            }
        }
        migrator.registerMigration(Migration.v5) { db in
            // What each pack was: its format, who made it (`make` writing a file, or a download
            // from the web app), its size and digest, and the stickers in it.
            try db.alter(table: "pack") { t in
                t.add(column: "format", .text)
                t.add(column: "origin", .text)
                t.add(column: "byteCount", .integer)
                t.add(column: "digest", .text)
                t.add(column: "stickers", .jsonText)
            }
        }
        migrator.registerMigration(Migration.v6) { db in
            // The editor's work on a processed photo: its caption, its brush strokes, and the
            // point a closer look found its subject under.
            try db.alter(table: "result") { t in
                t.add(column: "caption", .jsonText)
                t.add(column: "edits", .jsonText)
                t.add(column: "chosenPoint", .jsonText)
            }
        }
        return migrator
    }

    enum Migration {
        static let v1 = "v1-photos-results-colours-space"
        static let v2 = "v2-packs"
        static let v3 = "v3-space-favourites"
        static let v4 = "v4-chosen-subjects-and-style"
        static let v5 = "v5-pack-details"
        static let v6 = "v6-editor-caption-edits"
    }

    /// The library error for a failure of SQLite (or GRDB), its cause in words. SQLite says
    /// "database or disk is full" and "attempt to write a readonly database" whatever the cause; a
    /// person needs "no space left on device", "read-only file system" or "permission denied":
    /// those are read from the file system (access(2), free space) when SQLite's code points there.
    static func classify(_ error: any Error, path: String, opening: Bool = false) -> LibraryError {
        guard let error = error as? DatabaseError else { return .failed(path: path, reason: "\(error)") }
        let message = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .corrupt(path: path, reason: message)
        case .SQLITE_FULL:
            let reason = ErrorReason.words(for: ENOSPC)
            return opening ? .unavailable(path: path, reason: reason) : .failed(path: path, reason: reason)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_IOERR:
            let reason = writeBlocker(path: path, ioError: error.resultCode == .SQLITE_IOERR).map(ErrorReason.of) ?? message
            return opening ? .unavailable(path: path, reason: reason) : .failed(path: path, reason: reason)
        default:
            return .failed(path: path, reason: message)
        }
    }

    /// What stops writes to the database file or its folder (where SQLite creates its journal and
    /// WAL files): a read-only file system, no permission; for an I/O error also a full disk.
    static func writeBlocker(path: String, ioError: Bool) -> POSIXError? {
        let file = URL(fileURLWithPath: path)
        let folder = file.deletingLastPathComponent()
        return ioError ? AtomicFileWriter.unwritableCause(folder, replacing: file) : AtomicFileWriter.writeRefusal(folder, replacing: file)
    }
}
