import AtomicFiles
import Foundation
import Testing
@testable import StickerApp
import StickerKit
import StickerLibrary

/// Issue 36: what a process killed in the middle of a write (`kill -9`) leaves in the cache or the
/// library is removed by the next process that uses that place, but never what a process still
/// running is writing there.
@Suite struct CacheLeftoverTests {
    /// The id of a process that has ended.
    static func endedProcessID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    /// A folder as a killed writer leaves it: a half-written PNG inside, no manifest.
    static func makeHalfWrittenEntry(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let png = url.appending(path: ".photo.sticker.png.\(getpid()).\(UUID().uuidString).partial")
        try Data([0x89, 0x50]).write(to: png)
    }

    @Test("The next cache user removes a killed writer's half-written entries, and keeps a running writer's")
    func killedWritersEntriesAreRemoved() async throws {
        let disk = ProcessedPhotoCacheTests.diskCache()
        defer { try? FileManager.default.removeItem(at: disk.folder) }
        let dead = ".partial-\(try Self.endedProcessID())-\(UUID().uuidString)"
        let alive = ".partial-\(getpid())-\(UUID().uuidString)"
        let olderVersion = ".partial-\(UUID().uuidString)"  // no owner named: kept while young
        for name in [dead, alive, olderVersion] { try Self.makeHalfWrittenEntry(disk.folder.appending(path: name)) }

        let made = try await ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk).lookup(Data("photo".utf8))
        #expect(made.origin == .computed)

        let left = Set(try FileManager.default.contentsOfDirectory(atPath: disk.folder.path))
        #expect(left.contains(alive) && left.contains(olderVersion))
        #expect(!left.contains(dead))
        #expect(left.filter { !$0.hasPrefix(".") }.count == 1, "the new entry: \(left)")
    }

    @Test("An entry being written is named by its process, and its folder goes once it is in place")
    func entryBeingWrittenNamesItsProcess() async throws {
        let disk = ProcessedPhotoCacheTests.diskCache()
        defer { try? FileManager.default.removeItem(at: disk.folder) }
        _ = try await ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk).lookup(Data("photo".utf8))
        let name = ProcessOwnedName.make(ProcessedPhotoDiskCache.partialPrefix)
        #expect(ProcessOwnedName.processID(of: name, prefix: ".partial-") == getpid())
        #expect(ProcessOwnedName.processID(of: ".partial-\(UUID().uuidString)", prefix: ".partial-") == nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: disk.folder.path)
        #expect(!left.contains { $0.hasPrefix(".partial-") }, "\(left)")
    }

    @Test("A --no-cache run's private folder, left by a killed process, is removed by the next such run")
    func killedPrivateCacheFolderIsRemoved() async throws {
        let temporary = FileManager.default.temporaryDirectory
        let dead = temporary.appending(path: "\(ProcessedPhotoCache.temporaryPrefix)\(try Self.endedProcessID())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dead, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dead) }
        let cache = ProcessedPhotoCache(processor: FakePhotoProcessor())
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        let own = cache.disk.folder.lastPathComponent
        #expect(ProcessOwnedName.processID(of: own, prefix: ProcessedPhotoCache.temporaryPrefix) == getpid())
    }

    @Test("Opening the library removes a killed writer's temporary files among its files, and keeps a running writer's")
    func libraryLeftoversAreRemoved() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "library-leftovers-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let shard = folder.appending(path: "files/ab")
        try FileManager.default.createDirectory(at: shard, withIntermediateDirectories: true)
        let dead = ".abcdef.png.\(try Self.endedProcessID()).\(UUID().uuidString).partial"
        let alive = ".abcdef.png.\(getpid()).\(UUID().uuidString).partial"
        for name in [dead, alive] { try Data("x".utf8).write(to: shard.appending(path: name)) }
        try Data("x".utf8).write(to: folder.appending(path: dead))

        _ = try StickerLibrary(folder: folder)

        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: shard.path)) == [alive])
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: dead).path))
    }

    @Test("A second process storing an entry already there keeps the first (which may be being read) and drops its own")
    func firstStoredEntryStays() async throws {
        let disk = ProcessedPhotoCacheTests.diskCache()
        defer { try? FileManager.default.removeItem(at: disk.folder) }
        let key = ProcessedPhotoDiskCache.Key(digest: "ab12", identity: "fake-1")
        let scheme = PhotoColorScheme(colors: [])
        let first = try await disk.store(StickerPNGs(sticker: Data("first".utf8), gradient: Data("g".utf8)), colorScheme: scheme, for: key)
        let inode = try FileManager.default.attributesOfItem(atPath: first.sticker.path)[.systemFileNumber] as? Int
        let second = try await disk.store(StickerPNGs(sticker: Data("second".utf8), gradient: Data("g".utf8)), colorScheme: scheme, for: key)
        #expect(second.sticker == first.sticker)
        #expect(try Data(contentsOf: second.sticker) == Data("first".utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: first.sticker.path)[.systemFileNumber] as? Int == inode)
        let left = try FileManager.default.contentsOfDirectory(atPath: disk.folder.path)
        #expect(!left.contains { $0.hasPrefix(".partial-") }, "\(left)")
    }

    @Test("cache clear removes every entry but those a running process uses, which go once it has ended")
    func clearSparesEntriesInUse() async throws {
        let disk = ProcessedPhotoCacheTests.diskCache()
        defer { try? FileManager.default.removeItem(at: disk.folder) }
        _ = try await ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk).lookup(Data("done".utf8))
        var running: ProcessedPhotoCache? = ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk)
        let inUse = try await running?.lookup(Data("in use".utf8))
        #expect(try await disk.clear().entries == 1)
        #expect(FileManager.default.fileExists(atPath: try #require(inUse).files.sticker.path))
        running = nil
        #expect(try await disk.clear().entries == 1)
        #expect(await disk.usage().entries == 0)
    }
}
