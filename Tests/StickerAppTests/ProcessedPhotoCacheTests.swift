import Foundation
import Testing
@testable import StickerApp
import StickerKit

@Suite struct ProcessedPhotoCacheTests {
    /// A disk cache in a fresh temporary folder.
    static func diskCache(limit: Int64 = .max) -> ProcessedPhotoDiskCache {
        ProcessedPhotoDiskCache(folder: FileManager.default.temporaryDirectory.appending(path: "stickers-cache-tests-\(UUID())"),
                                sizeLimit: limit)
    }

    @Test("A photo processed once is served from the disk by a new cache (a new process) without work, its files unchanged")
    func secondRunComesFromDisk() async throws {
        let disk = Self.diskCache()
        defer { try? FileManager.default.removeItem(at: disk.folder) }
        let data = Data("photo".utf8)
        let first = FakePhotoProcessor()
        let made = try await ProcessedPhotoCache(processor: first, disk: disk).lookup(data)
        #expect(made.origin == .computed)
        let bytes = try Data(contentsOf: made.files.sticker)

        let second = FakePhotoProcessor()
        let again = try await ProcessedPhotoCache(processor: second, disk: disk).lookup(data)
        #expect(again.origin == .disk)
        #expect(second.calls == 0)
        #expect(try Data(contentsOf: again.files.sticker) == bytes)
        #expect(again.files.colorScheme == made.files.colorScheme)
        #expect(await disk.usage().entries == 1)
    }

    @Test("Other settings (another output identity) never get the entry made with the first")
    func identityIsPartOfTheKey() async throws {
        let disk = Self.diskCache()
        defer { try? FileManager.default.removeItem(at: disk.folder) }
        let data = Data("photo".utf8)
        _ = try await ProcessedPhotoCache(processor: FakePhotoProcessor(identity: "colors=5"), disk: disk).lookup(data)
        let other = FakePhotoProcessor(identity: "colors=7")
        #expect(try await ProcessedPhotoCache(processor: other, disk: disk).lookup(data).origin == .computed)
        #expect(other.calls == 1)
    }

    @Test("A photo that cannot be used is remembered on disk too, so a rerun does not try again")
    func unusableIsRememberedOnDisk() async throws {
        let disk = Self.diskCache()
        defer { try? FileManager.default.removeItem(at: disk.folder) }
        _ = try? await ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk).lookup(Data("bad photo".utf8))
        let second = FakePhotoProcessor()
        await #expect(throws: PhotoProcessingError.unreadable(.unsupportedFormat)) {
            try await ProcessedPhotoCache(processor: second, disk: disk).lookup(Data("bad photo".utf8))
        }
        #expect(second.calls == 0)
    }

    @Test("A damaged entry or one whose file is gone is made again, never a crash")
    func damagedEntryIsMadeAgain() async throws {
        let disk = Self.diskCache()
        defer { try? FileManager.default.removeItem(at: disk.folder) }
        let data = Data("photo".utf8)
        let made = try await ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk).lookup(data)
        try FileManager.default.removeItem(at: made.files.gradient)
        let second = FakePhotoProcessor()
        #expect(try await ProcessedPhotoCache(processor: second, disk: disk).lookup(data).origin == .computed)
        let entry = made.files.sticker.deletingLastPathComponent()
        try Data("{ not json".utf8).write(to: entry.appending(path: "entry.json"))
        let third = FakePhotoProcessor()
        #expect(try await ProcessedPhotoCache(processor: third, disk: disk).lookup(data).origin == .computed)
        #expect(second.calls == 1 && third.calls == 1)
    }

    @Test("Past the size limit the least recently used entries are evicted, never those of the running batch")
    func leastRecentlyUsedEviction() async throws {
        let probe = Self.diskCache()
        _ = try await ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: probe).lookup(Data("x".utf8))
        let entrySize = await probe.usage().bytes
        try? FileManager.default.removeItem(at: probe.folder)

        // Room for three entries.
        let disk = ProcessedPhotoDiskCache(folder: probe.folder, sizeLimit: entrySize * 3 + entrySize / 2)
        defer { try? FileManager.default.removeItem(at: disk.folder) }
        var old: ProcessedPhotoCache? = ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk)
        for name in ["a", "b", "c", "d"] {
            _ = try await old?.lookup(Data(name.utf8))
            try await Task.sleep(for: .milliseconds(20))  // distinct modification times
        }
        // "a" is used again (a hit refreshes it): "b" is now the least recently used.
        _ = try await ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk).lookup(Data("a".utf8))
        #expect(await old?.trim() == 0, "the batch's own entries are kept while it runs")
        #expect(await disk.trim() == 0, "and no other trim removes them while it runs")
        old = nil  // the batch ends
        #expect(await disk.trim() == 1)
        let after = FakePhotoProcessor()
        let fresh = ProcessedPhotoCache(processor: after, disk: disk)
        for name in ["a", "c", "d"] { #expect(try await fresh.lookup(Data(name.utf8)).origin == .disk) }
        #expect(try await fresh.lookup(Data("b".utf8)).origin == .computed)
    }

    @Test("An entry that cannot be written is a StorageError naming the path and the cause")
    func unwritableCacheIsAStorageError() async throws {
        let blocker = FileManager.default.temporaryDirectory.appending(path: "stickers-not-a-folder-\(UUID())")
        try Data("a file, not a folder".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let disk = ProcessedPhotoDiskCache(folder: blocker.appending(path: "processed"))
        await #expect {
            try await ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk).lookup(Data("photo".utf8))
        } throws: { error in
            guard let error = error as? StorageError else { return false }
            return error.path.hasPrefix(blocker.path) && !error.reason.isEmpty
        }
    }

    @Test func twentyConcurrentRequestsForOnePhotoProcessItOnce() async throws {
        let processor = FakePhotoProcessor()
        let cache = ProcessedPhotoCache(processor: processor)
        let data = Data("one photo".utf8)

        let results = try await withThrowingTaskGroup(of: StickerFiles.self) { group in
            for _ in 0..<20 { group.addTask { try await cache.stickerFiles(for: data) } }
            var all: [StickerFiles] = []
            for try await result in group { all.append(result) }
            return all
        }

        #expect(results.count == 20)
        #expect(Set(results).count == 1)
        #expect(processor.calls == 1)
    }

    @Test("a temporary cache asked for the sticker and gradient alone writes no mask or cut-out")
    func aPackOnlyCacheSkipsTheRestylingFiles() async throws {
        // Both caches stay alive to the end: a temporary cache's folder goes with it.
        let full = ProcessedPhotoCache(processor: FakePhotoProcessor())
        let packOnly = ProcessedPhotoCache(processor: FakePhotoProcessor(), keeping: [.sticker, .gradient])
        let all = try await full.stickerFiles(for: Data("photo".utf8))
        let some = try await packOnly.stickerFiles(for: Data("photo".utf8))
        #expect(all.mask != nil)
        #expect(some.mask == nil && some.cutOut == nil && some.subjects == nil)
        #expect(FileManager.default.fileExists(atPath: some.sticker.path))
        #expect(FileManager.default.fileExists(atPath: some.gradient.path))
        withExtendedLifetime((full, packOnly)) {}
    }

    @Test func aRememberedPhotoIsNotProcessedAgain() async throws {
        let processor = FakePhotoProcessor()
        let cache = ProcessedPhotoCache(processor: processor)
        _ = try await cache.stickerFiles(for: Data("a".utf8))
        _ = try await cache.stickerFiles(for: Data("a".utf8))
        _ = try await cache.stickerFiles(for: Data("b".utf8))
        #expect(processor.calls == 2)
        #expect(await cache.count == 2)
    }

    @Test func anUnreadablePhotoIsRememberedAsUnreadable() async {
        let processor = FakePhotoProcessor()
        let cache = ProcessedPhotoCache(processor: processor)
        for _ in 0..<3 {
            await #expect(throws: PhotoProcessingError.unreadable(.unsupportedFormat)) {
                try await cache.stickerFiles(for: Data("bad bytes".utf8))
            }
        }
        #expect(processor.calls == 1)
    }

    @Test("An engine failure is not the photo's: it is not remembered, the next request tries again")
    func anEngineFailureIsNotRemembered() async {
        let processor = FakePhotoProcessor()
        let cache = ProcessedPhotoCache(processor: processor)
        for _ in 0..<2 {
            await #expect(throws: PhotoProcessingError.self) {
                try await cache.stickerFiles(for: Data("engine fails".utf8))
            }
        }
        #expect(processor.calls == 2)
    }

    @Test func whenEveryWaiterIsCancelledTheWorkIsCancelledAndNotRemembered() async throws {
        let processor = FakePhotoProcessor(gateOpen: false)
        let cache = ProcessedPhotoCache(processor: processor)
        let data = Data("slow photo".utf8)

        let waiter = Task { try await cache.stickerFiles(for: data) }
        while processor.calls < 1 { try await Task.sleep(for: .milliseconds(1)) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }

        processor.openGate()
        _ = try await cache.stickerFiles(for: data)
        #expect(processor.calls == 2, "a cancelled computation is not reused")
    }

    @Test func oneCancelledWaiterDoesNotSpoilTheResultForTheOthers() async throws {
        let processor = FakePhotoProcessor(gateOpen: false)
        let cache = ProcessedPhotoCache(processor: processor)
        let data = Data("shared photo".utf8)

        let impatient = Task { try await cache.stickerFiles(for: data) }
        let patient = Task { try await cache.stickerFiles(for: data) }
        while processor.calls < 1 { try await Task.sleep(for: .milliseconds(1)) }
        try await Task.sleep(for: .milliseconds(20))
        impatient.cancel()
        try await Task.sleep(for: .milliseconds(20))
        processor.openGate()

        let files = try await patient.value
        #expect(files.colorScheme == FakePhotoProcessor.photo(for: data).colorScheme)
        #expect(processor.calls == 1)
    }
}
