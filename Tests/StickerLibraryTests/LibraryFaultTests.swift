import Foundation
import GRDB
import StickerKit
import Testing
@testable import StickerLibrary

/// A full disk and a read-only database, injected: SQLite's `max_page_count` makes a write fail
/// exactly as a full disk does (SQLITE_FULL), and a read-only connection as a read-only file does.
/// The real file systems (a full tmpfs, a read-only mount) are in scripts/full_disk_check.sh.
@Suite struct LibraryFaultTests {
    private static func entries(_ count: Int, from start: Int = 0) -> [CatalogEntryRecord] {
        (start..<start + count).map { CatalogEntryRecord(date: "day-\($0)", json: String(repeating: "x", count: 2_000)) }
    }

    @Test("A full disk during a write says so in words, rolls the write back, and keeps what was committed before")
    func fullDiskDuringWrite() async throws {
        try await withTemporaryFolder { folder in
            do {
                let library = try StickerLibrary(folder: folder)
                try await library.recordCatalogEntries(Self.entries(3))
            }
            do {
                let full = try StickerLibrary(folder: folder)
                // The pool's one writer connection may not grow the file past its present size.
                try await full.database.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1") }
                #expect(try await full.catalogEntries().count == 3)
                await #expect {
                    try await full.recordCatalogEntries(Self.entries(50, from: 3))
                } throws: { error in
                    guard case .failed(let path, let reason)? = error as? LibraryError else { return false }
                    return path == full.databasePath && reason == "no space left on device"
                        && "\(error)".contains("no space left on device")
                }
                // Not one row of the failed transaction is kept.
                #expect(try await full.catalogEntries().count == 3)
            }
            // Room again: everything committed before is there, and writing works.
            let roomy = try StickerLibrary(folder: folder)
            #expect(try await roomy.catalogEntries().map(\.date).sorted() == ["day-0", "day-1", "day-2"])
            try await roomy.recordCatalogEntries(Self.entries(50, from: 3))
            #expect(try await roomy.catalogEntries().count == 53)
            let check = try await roomy.database.pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            #expect(check == ["ok"])
        }
    }

    @Test("A disk that fills while a new library is created never leaves a half-made version; the next open completes it")
    func fullDiskDuringMigration() async throws {
        let migrations = [LibraryDatabase.Migration.v1, LibraryDatabase.Migration.v2, LibraryDatabase.Migration.v3,
                          LibraryDatabase.Migration.v4, LibraryDatabase.Migration.v5, LibraryDatabase.Migration.v6]
        let tablesOf = [
            LibraryDatabase.Migration.v1: ["catalogEntry", "colorScheme", "photo", "result", "savedSpacePhoto"],
            LibraryDatabase.Migration.v2: ["pack"],
            LibraryDatabase.Migration.v3: ["spaceFavorite"],
            // v4, v5 and v6 add columns, no table.
        ]
        var sawFailure = false
        // Room for 2, 3, … pages: the disk fills at a different step of the migrations each time.
        for pages in 2...16 {
            try await withTemporaryFolder { folder in
                do {
                    _ = try StickerLibrary(folder: folder) { configuration in
                        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA max_page_count = \(pages)") }
                    }
                } catch {
                    sawFailure = true
                    guard case .unavailable(_, let reason)? = error as? LibraryError else {
                        Issue.record("\(pages) pages: \(error)")
                        return
                    }
                    #expect(reason == "no space left on device", "\(pages) pages")
                }
                // Whatever was applied is whole: its tables exist, those of the rest do not.
                let path = folder.appending(path: LibraryDatabase.fileName).path
                if FileManager.default.fileExists(atPath: path) {
                    let queue = try DatabaseQueue(path: path)
                    let (tables, applied) = try await queue.read { db in
                        (Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb_%' AND name NOT LIKE 'sqlite_%'")),
                         try db.tableExists("grdb_migrations") ? try LibraryDatabase.migrator.appliedIdentifiers(db) : [])
                    }
                    #expect(applied == Set(migrations.prefix(applied.count)), "\(pages) pages")
                    #expect(tables == Set(applied.flatMap { tablesOf[$0] ?? [] }), "\(pages) pages: \(applied) \(tables)")
                    try queue.close()
                }
                let roomy = try StickerLibrary(folder: folder)
                let applied = try await roomy.database.pool.read { db in try LibraryDatabase.migrator.appliedIdentifiers(db) }
                #expect(applied == Set(migrations))
                try await roomy.recordPack(ExportedPack(path: "/tmp/p.zip", stickerCount: 1, identity: nil))
                #expect(try await roomy.packs().count == 1)
            }
        }
        #expect(sawFailure)
    }

    @Test("A database that can only be read refuses writes with its name and keeps its rows")
    func readOnlyDatabase() async throws {
        try await withTemporaryFolder { folder in
            do {
                let library = try StickerLibrary(folder: folder)
                try await library.recordCatalogEntries(Self.entries(2))
            }
            let path = folder.appending(path: LibraryDatabase.fileName).path
            do {
                let readOnly = try StickerLibrary(folder: folder) { $0.readonly = true }
                #expect(try await readOnly.catalogEntries().count == 2)
                await #expect {
                    try await readOnly.recordCatalogEntries(Self.entries(1, from: 2))
                } throws: { error in
                    guard case .failed(let failedPath, _)? = error as? LibraryError else { return false }
                    return failedPath == path
                }
            } catch {
                // Opening read-only may already refuse (the migrator's bookkeeping): that names the file too.
                #expect("\(error)".contains(path))
            }
            #expect(try await StickerLibrary(folder: folder).catalogEntries().count == 2)
        }
    }

    @Test("An image file the library cannot write is named as the library's file, with the cause, and nothing is left")
    func contentStoreFailure() async throws {
        try await withTemporaryFolder { folder in
            // A file where the files folder should be refuses the write (root writes anywhere else).
            try Data("in the way".utf8).write(to: folder.appending(path: "files"))
            let store = ContentStore(folder: folder.appending(path: "files"))
            #expect {
                try store.store(Data([1, 2, 3]), extension: "png")
            } throws: { error in
                guard case .file(let path, let reason)? = error as? LibraryError else { return false }
                return path.hasPrefix(folder.appending(path: "files").path) && !reason.isEmpty
                    && "\(error)".hasPrefix("the library's file ")
            }
            #expect(try Data(contentsOf: folder.appending(path: "files")) == Data("in the way".utf8))
        }
    }

    @Test("SQLite's generic codes become the file system's cause in words")
    func causesInWords() {
        let full = LibraryDatabase.classify(DatabaseError(resultCode: .SQLITE_FULL, message: "database or disk is full"), path: "/x/library.sqlite")
        #expect(full == .failed(path: "/x/library.sqlite", reason: "no space left on device"))
        // A folder that refuses new files (here: it does not exist) is named by what access(2) says.
        let gone = "/no-such-folder-\(UUID().uuidString)/library.sqlite"
        let cannotOpen = LibraryDatabase.classify(DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "unable to open database file"),
                                                  path: gone, opening: true)
        #expect(cannotOpen == .unavailable(path: gone, reason: "no such file"))
        #expect("\(cannotOpen)" == "cannot open the library database \(gone): no such file")
        // Nothing found on the file system: SQLite's own message is kept.
        let readOnly = LibraryDatabase.classify(DatabaseError(resultCode: .SQLITE_READONLY, message: "attempt to write a readonly database"),
                                                path: FileManager.default.temporaryDirectory.appending(path: "library.sqlite").path)
        #expect(readOnly == .failed(path: FileManager.default.temporaryDirectory.appending(path: "library.sqlite").path,
                                    reason: "attempt to write a readonly database"))
    }
}
