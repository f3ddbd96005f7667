import Foundation
import GRDB
import Raster
import StickerKit
import Testing
@testable import StickerLibrary

/// A fresh temporary folder per test, removed afterwards.
func withTemporaryFolder<T>(_ body: (URL) async throws -> T) async throws -> T {
    let folder = FileManager.default.temporaryDirectory.appending(path: "stickers-library-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

@Suite struct LibraryDatabaseTests {
    @Test("An empty folder becomes a library with every table of the latest schema")
    func migratesFromEmpty() async throws {
        try await withTemporaryFolder { folder in
            let library = try StickerLibrary(folder: folder)
            let (tables, applied) = try await library.database.pool.read { db in
                (try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'grdb_%' AND name NOT LIKE 'sqlite_%' ORDER BY name"),
                 try LibraryDatabase.migrator.appliedIdentifiers(db))
            }
            #expect(tables == ["catalogEntry", "colorScheme", "pack", "photo", "result", "savedSpacePhoto", "spaceFavorite"])
            #expect(applied == [LibraryDatabase.Migration.v1, LibraryDatabase.Migration.v2, LibraryDatabase.Migration.v3,
                                LibraryDatabase.Migration.v4, LibraryDatabase.Migration.v5, LibraryDatabase.Migration.v6])
            let mode = try await library.database.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
            #expect(mode == "wal")
        }
    }

    @Test("A library of the first schema is migrated with its rows intact")
    func migratesFromFirstSchema() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appending(path: LibraryDatabase.fileName).path
            do {
                let queue = try DatabaseQueue(path: path)
                try LibraryDatabase.migrator.migrate(queue, upTo: LibraryDatabase.Migration.v1)
                try await queue.write { db in
                    try db.execute(sql: """
                        INSERT INTO photo (id, digest, name, byteCount, origin, position, addedAt)
                        VALUES ('8B1D1C52-6D3B-4C38-9B4C-2E0C2B8C0A01', 'abc', 'cat', 12, 'upload', 0, '2026-11-25 10:00:00.000');
                        INSERT INTO colorScheme (id, photoName, colors, colorCount, createdAt, favoritedAt)
                        VALUES ('8B1D1C52-6D3B-4C38-9B4C-2E0C2B8C0A02', 'cat', '[{"red":1,"green":2,"blue":3,"weight":1}]', 3,
                                '2026-11-25 10:00:00.000', '2026-11-25 10:01:00.000');
                        """)
                }
                #expect(try await queue.read { db in try db.tableExists("pack") } == false)
            }
            let library = try StickerLibrary(folder: folder)
            let photos = try await library.photos()
            #expect(photos.map(\.name) == ["cat"])
            let schemes = try await library.colorSchemes()
            #expect(schemes.favorites.map(\.colors) == [[PaletteColor(red: 1, green: 2, blue: 3, weight: 1)]])
            try await library.recordPack(ExportedPack(path: "/tmp/x.zip", stickerCount: 1, identity: nil))
            #expect(try await library.packs().count == 1)
        }
    }

    @Test("A library of schema v3 is migrated: results and packs keep their rows and gain empty new columns")
    func migratesFromV3() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appending(path: LibraryDatabase.fileName).path
            do {
                let queue = try DatabaseQueue(path: path)
                try LibraryDatabase.migrator.migrate(queue, upTo: LibraryDatabase.Migration.v3)
                try await queue.write { db in
                    try db.execute(sql: """
                        INSERT INTO result (photoDigest, identity, outcome, stickerFile, gradientFile, maskFile, colors, createdAt)
                        VALUES ('abc', 'id', 'processed', 'ab/s.png', 'ab/g.png', NULL, '[{"red":1,"green":2,"blue":3,"weight":1}]',
                                '2026-11-25 10:00:00.000');
                        INSERT INTO pack (path, stickerCount, identity, createdAt) VALUES ('/p/old.zip', 2, NULL, '2026-11-25 10:00:00.000');
                        """)
                }
            }
            let library = try StickerLibrary(folder: folder)
            let pack = try #require(try await library.packs().first)
            #expect(pack.path == "/p/old.zip" && pack.stickerCount == 2)
            #expect(pack.format == nil && pack.origin == nil && pack.byteCount == nil && pack.stickers == nil)
            let result = try #require(try await library.results(identity: "id")["abc"])
            #expect(result.stickerFile == "ab/s.png" && result.gradientFile == "ab/g.png")
            #expect(result.cutOutFile == nil && result.chosenSubjects == nil && result.style == nil)
        }
    }

    @Test("A result's cut-out, chosen subjects and style survive reopening the library")
    func choiceAndStyleRoundTrip() async throws {
        try await withTemporaryFolder { folder in
            var style = StickerStyle(outlineWidth: 7, shadow: StickerStyle.Shadow(), effect: .puffy)
            style.outlineColor = try #require(RGBA8(hex: "#FF3366"))
            style.padding = 5
            do {
                let library = try StickerLibrary(folder: folder)
                try await library.recordResults([LibraryResult(photoDigest: "d", identity: "id", outcome: .processed, stickerFile: "s.png",
                                                               gradientFile: "g.png", cutOutFile: "c.png", chosenSubjects: [0, 2],
                                                               style: LibraryStyle(style))])
            }
            let result = try #require(try await StickerLibrary(folder: folder).results(identity: "id")["d"])
            #expect(result.cutOutFile == "c.png")
            #expect(result.chosenSubjects == [0, 2])
            #expect(result.style?.style == style)
        }
    }

    @Test("A pack's format, origin, size, digest and stickers survive reopening the library")
    func packDetailsRoundTrip() async throws {
        try await withTemporaryFolder { folder in
            let bytes = Data("PK pack bytes".utf8)
            do {
                let library = try StickerLibrary(folder: folder)
                try await library.recordPack(ExportedPack(bytes: bytes, path: "/out/pack.wastickers", format: "whatsapp", origin: .make,
                                                          stickers: ["cat", "dog", "owl"], identity: "engine-1"))
            }
            let pack = try #require(try await StickerLibrary(folder: folder).packs().first)
            #expect(pack.path == "/out/pack.wastickers" && pack.format == "whatsapp" && pack.origin == .make)
            #expect(pack.stickers == ["cat", "dog", "owl"] && pack.stickerCount == 3 && pack.identity == "engine-1")
            #expect(pack.byteCount == bytes.count && pack.digest == ContentDigest(bytes).hex)
        }
    }

    @Test("A damaged database file is refused with its name and left byte for byte as it was")
    func corruptDatabaseIsNotOverwritten() async throws {
        try await withTemporaryFolder { folder in
            let url = folder.appending(path: LibraryDatabase.fileName)
            let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            try garbage.write(to: url)
            #expect {
                try StickerLibrary(folder: folder)
            } throws: { error in
                guard case .corrupt(let path, _)? = error as? LibraryError else { return false }
                return path == url.path && "\(error)".contains(url.path)
            }
            #expect(try Data(contentsOf: url) == garbage)
        }
    }

    @Test("A database that cannot be read is refused with its name")
    func unreadableDatabase() async throws {
        guard getuid() != 0 else { return }  // root reads anything: nothing to check
        try await withTemporaryFolder { folder in
            _ = try StickerLibrary(folder: folder)
            let url = folder.appending(path: LibraryDatabase.fileName)
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path)
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path) }
            #expect(throws: LibraryError.self) { try StickerLibrary(folder: folder) }
        }
    }

    @Test("Photos, results, colour schemes and favourites survive reopening the library")
    func roundTrip() async throws {
        try await withTemporaryFolder { folder in
            let photo = LibraryPhoto(id: UUID(), digest: "d1", name: "dog", byteCount: 3, origin: .upload, storedFile: "d1/x.jpg", position: 0)
            let scheme = LibraryColorScheme(id: UUID(), photoName: "dog", colors: [PaletteColor(red: 9, green: 8, blue: 7, weight: 1)],
                                            colorCount: 5, createdAt: Date())
            do {
                let library = try StickerLibrary(folder: folder)
                try await library.addPhotos([photo])
                try await library.recordResults([LibraryResult(photoDigest: "d1", identity: "id", outcome: .processed,
                                                               stickerFile: "s.png", gradientFile: "g.png", colors: scheme.colors)])
                try await library.saveColorScheme(scheme)
                try await library.setFavorite(scheme.id, true)
                try await library.saveSpacePhoto(SavedSpacePhoto(date: "2024-01-02", title: "Moon", file: "/p/moon.jpg", url: nil))
            }
            let reopened = try StickerLibrary(folder: folder)
            #expect(try await reopened.photos().map(\.id) == [photo.id])
            #expect(try await reopened.results(identity: "id")["d1"]?.stickerFile == "s.png")
            #expect(try await reopened.results(identity: "other").isEmpty)
            let schemes = try await reopened.colorSchemes()
            #expect(schemes.history.map(\.id) == [scheme.id])
            #expect(schemes.favorites.map(\.id) == [scheme.id])
            #expect(try await reopened.savedSpacePhotos().map(\.title) == ["Moon"])
            try await reopened.setFavorite(scheme.id, false)
            #expect(try await reopened.colorSchemes().favorites.isEmpty)
        }
    }

    @Test("The same bytes are stored once in the content-addressed files")
    func contentStoreDeduplicates() async throws {
        try await withTemporaryFolder { folder in
            let library = try StickerLibrary(folder: folder)
            let a = try library.files.store(Data("same".utf8), extension: "jpg")
            let b = try library.files.store(Data("same".utf8), extension: "jpg")
            let c = try library.files.store(Data("other".utf8), extension: "jpg")
            #expect(a == b)
            #expect(a != c)
            #expect(try Data(contentsOf: library.files.url(a)) == Data("same".utf8))
        }
    }

    @Test("Many tasks read and write the library at once and every write lands")
    func concurrentReadersAndWriters() async throws {
        try await withTemporaryFolder { folder in
            let library = try StickerLibrary(folder: folder)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<20 {
                    group.addTask {
                        try await library.addPhotos([LibraryPhoto(id: UUID(), digest: "d\(i)", name: "p\(i)", byteCount: i,
                                                                  origin: .folder, position: 0)])
                    }
                    group.addTask { _ = try await library.photos() }
                }
                try await group.waitForAll()
            }
            let photos = try await library.photos()
            #expect(photos.count == 20)
            #expect(Set(photos.map(\.position)).count == 20)
        }
    }
}
