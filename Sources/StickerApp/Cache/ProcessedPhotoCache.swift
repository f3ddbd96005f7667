import AtomicFiles
import Foundation
import StickerKit

/// Remembers what each distinct photo became, so a photo is processed at most once — in this
/// process (memory), across runs (the disk cache), however many tasks ask at once.
///
/// Looks in memory, then on disk, then computes: the processor's pixels go straight through the
/// one "processed photo → its PNGs" path (`StickerPNGs`) into a disk entry, and only the files'
/// locations and the colour scheme are kept, never the pixels. Keys are the photo's content
/// digest plus the processor's `outputIdentity`.
///
/// Concurrent requests for the same photo share one in-flight task. That task is cancelled only
/// when every task waiting on it has been cancelled: one impatient caller never spoils the result
/// for the others. Failures that describe the photo itself (unreadable, no subject) are remembered
/// too (on disk as well); cancellations and engine failures (the model cannot run) are not: they
/// are not the photo's.
public actor ProcessedPhotoCache {
    /// Where a result came from.
    public enum Origin: Sendable, Hashable {
        case memory, disk, computed
        /// True when no processing was done for this request.
        public var isCached: Bool { self != .computed }
    }

    private typealias Outcome = Result<StickerFiles, PhotoProcessingError>
    private enum Entry {
        case inFlight(Task<(Outcome, Origin), any Error>, waiters: Int)
        case finished(Outcome)
    }

    private let processor: any PhotoProcessing
    /// The processor's `outputIdentity`: what results are keyed by besides the photo.
    public nonisolated let identity: String
    public nonisolated let disk: ProcessedPhotoDiskCache
    /// Removed when the cache goes away: a cache made without a disk folder of its own.
    private let temporaryFolder: URL?
    /// The PNGs each new entry is given. A lasting cache keeps them all (the mask and the unstyled
    /// cut-out let a later restyle or another subject choice skip the network); `make --no-cache`
    /// packs only the sticker and its gradient picture from a folder that is deleted afterwards.
    private let kinds: Set<StickerPNGs.Kind>
    private var entries: [ContentDigest: Entry] = [:]
    /// The disk entries this process used: never evicted under it.
    private var used: Set<String> = []
    /// This cache's entries as other processes see them: never evicted while it runs.
    private let readers: CacheReaders
    /// Whether this process has looked for what killed processes left in the disk folder.
    private var leftoversRemoved = false

    public init(processor: any PhotoProcessing, disk: ProcessedPhotoDiskCache) {
        self.processor = processor
        self.identity = processor.outputIdentity
        self.disk = disk
        self.readers = CacheReaders(cacheFolder: disk.folder)
        self.temporaryFolder = nil
        self.kinds = Self.allKinds
    }

    /// What looks closer at a point the first look missed (the processor's extractor), when the
    /// processor can: the web app's click on a photo.
    public nonisolated var subjectFinder: (any SubjectFinding)? { processor as? any SubjectFinding }

    /// Every PNG an entry can hold: what a lasting cache keeps.
    public static let allKinds: Set<StickerPNGs.Kind> = [.sticker, .gradient, .mask, .cutOut]

    /// A cache whose disk layer is a private temporary folder, removed with the cache: for
    /// `--no-cache` and tests (the files still have to live somewhere until they are packed).
    /// `kinds`: the PNGs made for each photo (the sticker and its gradient picture are always
    /// made); `make --no-cache` asks for those two alone, since nothing will restyle them.
    public init(processor: any PhotoProcessing, keeping kinds: Set<StickerPNGs.Kind> = allKinds) {
        // Named by this process, so the next one removes it if this one is killed before deinit.
        let temporary = FileManager.default.temporaryDirectory
        ProcessOwnedName.removeLeftovers(in: temporary, prefix: Self.temporaryPrefix)
        let folder = temporary.appending(path: ProcessOwnedName.make(Self.temporaryPrefix), directoryHint: .isDirectory)
        self.processor = processor
        self.identity = processor.outputIdentity
        self.disk = ProcessedPhotoDiskCache(folder: folder, sizeLimit: .max)
        self.readers = CacheReaders(cacheFolder: folder)
        self.temporaryFolder = folder
        self.kinds = kinds.union([.sticker, .gradient])
    }

    /// The private folders of caches without a disk folder of their own: `stickers-nocache-PID-UUID`.
    static let temporaryPrefix = "stickers-nocache-"

    deinit {
        if let temporaryFolder { try? FileManager.default.removeItem(at: temporaryFolder) }
    }

    /// The sticker files for `data`: remembered, found on disk, or made now.
    public func stickerFiles(for data: Data) async throws -> StickerFiles {
        try await lookup(data).files
    }

    /// The sticker files for `data` and where they came from. Throws `PhotoProcessingError` for a
    /// photo that cannot be used, `StorageError` when the entry cannot be written (a full disk),
    /// `CancellationError`.
    public func lookup(_ data: Data) async throws -> (files: StickerFiles, origin: Origin) {
        await removeLeftoversOnce()
        let key = ContentDigest(data)
        let task: Task<(Outcome, Origin), any Error>
        switch entries[key] {
        case .finished(let result)?:
            return (try result.get(), .memory)
        case .inFlight(let running, let waiters)?:
            entries[key] = .inFlight(running, waiters: waiters + 1)
            task = running
        case nil:
            let diskKey = ProcessedPhotoDiskCache.Key(digest: key.hex, identity: identity)
            used.insert(diskKey.name)
            readers.register(diskKey.name)
            task = Task { [processor, disk, kinds] in try await Self.make(data, key: diskKey, processor: processor, disk: disk, kinds: kinds) }
            entries[key] = .inFlight(task, waiters: 1)
        }
        return try await withTaskCancellationHandler {
            try await result(of: task, for: key)
        } onCancel: {
            Task { await self.waiterCancelled(key) }
        }
    }

    /// Disk, else compute and store.
    @concurrent private static func make(_ data: Data, key: ProcessedPhotoDiskCache.Key, processor: any PhotoProcessing,
                                         disk: ProcessedPhotoDiskCache, kinds: Set<StickerPNGs.Kind>) async throws -> (Outcome, Origin) {
        if let found = await disk.lookup(key) { return (found, .disk) }
        let photo: ProcessedPhoto
        do {
            photo = try await processor.process(data: data)
        } catch let error as PhotoProcessingError {
            guard error.isPhotoProblem else { throw error }
            try await disk.storeUnusable(error, for: key)
            return (.failure(error), .computed)
        }
        try Task.checkCancellation()
        let pngs = try await StickerPNGs.render(photo, kinds: kinds)
        var files = try await disk.store(pngs, colorScheme: photo.colorScheme, for: key)
        files.style = photo.sticker.style
        return (.success(files), .computed)
    }

    /// The files of the photo with content digest `digest` (hex) as its disk entry holds them —
    /// the kept cut-out and subjects included, which restyling and re-cutting need — or nil when
    /// there is no entry (or it records an unusable photo). Nothing is computed.
    public func storedFiles(digest: String) async -> StickerFiles? {
        await removeLeftoversOnce()
        let key = ProcessedPhotoDiskCache.Key(digest: digest, identity: identity)
        readers.register(key.name)
        guard case .success(let files)? = await disk.lookup(key) else { return nil }
        used.insert(key.name)
        return files
    }

    /// Forgets what is in memory (e.g. after the engine's settings changed); the disk keeps it.
    public func removeAll() {
        for case .inFlight(let task, _) in entries.values { task.cancel() }
        entries.removeAll()
    }

    /// The number of photos whose result is remembered in memory.
    public var count: Int {
        entries.values.count { if case .finished = $0 { true } else { false } }
    }

    /// Evicts least recently used disk entries past the size limit, keeping this process's own.
    @discardableResult
    public func trim() async -> Int {
        await disk.trim(protecting: used)
    }

    /// The first process to use the disk folder after a killed one removes its half-written
    /// entries (only those whose writer is gone).
    private func removeLeftoversOnce() async {
        guard !leftoversRemoved else { return }
        leftoversRemoved = true
        await disk.removeLeftovers()
        await Self.removeTemporaryLeftovers()
    }

    /// The private folders of killed `--no-cache` runs: any run may remove them (a folder whose
    /// process still runs is kept).
    @concurrent private static func removeTemporaryLeftovers() async {
        ProcessOwnedName.removeLeftovers(in: FileManager.default.temporaryDirectory, prefix: temporaryPrefix)
    }

    private func result(of task: Task<(Outcome, Origin), any Error>, for key: ContentDigest) async throws -> (files: StickerFiles, origin: Origin) {
        do {
            let (outcome, origin) = try await task.value
            entries[key] = .finished(outcome)
            return (try outcome.get(), origin)
        } catch {
            // Cancelled, an engine failure or a storage failure: forget it, so the next request
            // tries again.
            if case .inFlight(let running, _)? = entries[key], running == task { entries[key] = nil }
            try Task.checkCancellation()
            throw error
        }
    }

    private func waiterCancelled(_ key: ContentDigest) {
        guard case .inFlight(let task, let waiters)? = entries[key] else { return }
        if waiters <= 1 {
            task.cancel()
            entries[key] = nil
        } else {
            entries[key] = .inFlight(task, waiters: waiters - 1)
        }
    }
}
