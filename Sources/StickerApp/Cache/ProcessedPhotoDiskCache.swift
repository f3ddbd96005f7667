import AtomicFiles
import ErrorReasons
import Foundation
import StickerKit

/// Why the cache (or the library) could not store something: the path and the cause in words
/// ("No space left on device"), so the CLI can exit 74 saying it.
nonisolated public struct StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) { self.path = path; self.reason = reason }
    public var description: String { "cannot write \(path): \(reason)" }
}

/// The processed-photo cache's disk layer: one folder per entry under `folder`, named by the
/// photo's content digest and a digest of the processor's `outputIdentity`; the entry's format is
/// `CacheEntryManifest`'s. Clips' animated stickers are entries here too (`AnimatedCacheEntries`),
/// under the same size limit, trim, readers' protection and `stickers cache`. Entries are written
/// into a hidden temporary folder and renamed into place, so a reader (or a process killed
/// mid-write) never sees half an entry. Least recently used entries (by the manifest's
/// modification time, refreshed on every hit) are evicted past `sizeLimit`.
nonisolated public struct ProcessedPhotoDiskCache: Sendable {
    public var folder: URL
    public var sizeLimit: Int64

    public init(folder: URL, sizeLimit: Int64 = 2 << 30) {
        self.folder = folder
        self.sizeLimit = sizeLimit
    }

    /// The cache under the app's cache directory (`StickerPaths.cacheDirectory`).
    public static func standard(cacheDirectory: URL = StickerPaths.cacheDirectory(),
                                sizeLimit: Int64 = StickerPaths.cacheLimit()) -> Self {
        Self(folder: cacheDirectory.appending(path: "processed", directoryHint: .isDirectory), sizeLimit: sizeLimit)
    }

    /// An entry's key: the content digest of its input (a photo's or a clip's bytes) and the
    /// settings that shaped it. Its folder's name is the digest and a digest of the settings; a
    /// clip's animated sticker has `-clip-` between them (so `usage` tells them apart by name), a
    /// processed photo's name is as it has always been (an existing cache keeps serving).
    struct Key: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            case photo, animated
        }

        var digest: String
        var identity: String
        var kind = Kind.photo

        var name: String {
            let settings = ContentDigest(Data(identity.utf8)).hex.prefix(16)
            return switch kind {
            case .photo: "\(digest)-\(settings)"
            case .animated: "\(digest)\(Self.animatedMark)\(settings)"
            }
        }

        static let animatedMark = "-clip-"

        /// Whether the entry folder `name` holds a clip's animated sticker.
        static func isAnimated(_ name: String) -> Bool { name.contains(animatedMark) }
    }

    /// The remembered outcome for `key`, its access time refreshed; `nil` when there is none (or
    /// it is damaged, of another format, or one of its files is gone: it is then removed).
    @concurrent func lookup(_ key: Key) async -> Result<StickerFiles, PhotoProcessingError>? {
        // Shared: no eviction (in any process) runs while the entry is found (see CacheReaders).
        CacheReaders.withLock(in: folder, exclusive: false) { find(key) }
    }

    private func find(_ key: Key) -> Result<StickerFiles, PhotoProcessingError>? {
        let entry = folder.appending(path: key.name, directoryHint: .isDirectory)
        let manifestURL = entry.appending(path: CacheEntryManifest.fileName)
        guard let data = try? Data(contentsOf: manifestURL) else { return nil }
        guard let manifest = CacheEntryManifest.decode(data), manifest.digest == key.digest,
              manifest.identity == key.identity, let result = manifest.result(in: entry),
              Self.filesExist(result) else {
            try? FileManager.default.removeItem(at: entry)
            return nil
        }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: manifestURL.path)
        return result
    }

    /// Whether `key`'s entry is whole and readable (a damaged one is removed).
    private func isSound(_ key: Key) -> Bool {
        switch key.kind {
        case .photo: find(key) != nil
        case .animated: findAnimated(key) != nil
        }
    }

    private static func filesExist(_ result: Result<StickerFiles, PhotoProcessingError>) -> Bool {
        guard case .success(let files) = result else { return true }
        return ([files.sticker, files.gradient] + [files.mask].compactMap { $0 })
            .allSatisfy { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Stores a processed photo's PNGs and scheme; returns where the files are.
    @concurrent func store(_ pngs: StickerPNGs, colorScheme: PhotoColorScheme, for key: Key) async throws(StorageError) -> StickerFiles {
        let manifest = try write(key) { temporary in
            let files = try pngs.write(into: temporary, colorScheme: colorScheme)
            return CacheEntryManifest.processed(digest: key.digest, identity: key.identity, files: files)
        }
        guard case .success(let files)? = manifest.result(in: folder.appending(path: key.name, directoryHint: .isDirectory)) else {
            throw StorageError(path: folder.path, reason: "the entry just written names no sticker")
        }
        return files
    }

    /// Remembers that the photo cannot be used (errors that describe the photo only).
    @concurrent func storeUnusable(_ error: PhotoProcessingError, for key: Key) async throws(StorageError) {
        guard let manifest = CacheEntryManifest.unusable(digest: key.digest, identity: key.identity, error: error) else { return }
        _ = try write(key) { _ in manifest }
    }

    /// An entry being written: `.partial-PID-UUID` (see `ProcessOwnedName`).
    static let partialPrefix = ".partial-"

    /// Removes what killed processes left here: entries they were writing (`.partial-PID-UUID`,
    /// with the writer's temporary files inside), never a running writer's. Folders of older
    /// versions (`.partial-UUID`, no owner to ask) go once they are an hour old: no entry takes
    /// that long to write. Returns how many were removed.
    @discardableResult
    @concurrent func removeLeftovers() async -> Int {
        removeLeftoverEntries()
    }

    private func removeLeftoverEntries() -> Int {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in names where ProcessOwnedName.isLeftover(name, prefix: Self.evictingPrefix) {
            if (try? manager.removeItem(at: folder.appending(path: name))) != nil { removed += 1 }
        }
        for name in names where name.hasPrefix(Self.partialPrefix) {
            let url = folder.appending(path: name)
            if ProcessOwnedName.processID(of: name, prefix: Self.partialPrefix) != nil {
                guard ProcessOwnedName.isLeftover(name, prefix: Self.partialPrefix) else { continue }
            } else {
                guard UUID(uuidString: String(name.dropFirst(Self.partialPrefix.count))) != nil else { continue }
                let modified = (try? manager.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date ?? .distantPast
                guard modified < Date(timeIntervalSinceNow: -3600) else { continue }
            }
            if (try? manager.removeItem(at: url)) != nil { removed += 1 }
        }
        return removed
    }

    /// Writes `key`'s entry whole: `fill` writes its files into a hidden folder and returns its
    /// manifest, and the folder is renamed into place.
    func write(_ key: Key, _ fill: (URL) throws -> CacheEntryManifest) throws(StorageError) -> CacheEntryManifest {
        let manager = FileManager.default
        let destination = folder.appending(path: key.name, directoryHint: .isDirectory)
        let temporary = folder.appending(path: ProcessOwnedName.make(Self.partialPrefix), directoryHint: .isDirectory)
        do {
            try manager.createDirectory(at: temporary, withIntermediateDirectories: true)
            let manifest = try fill(temporary)
            try AtomicFileWriter.write(try manifest.encoded(), to: temporary.appending(path: CacheEntryManifest.fileName))
            // Another process may have stored the same entry meanwhile: theirs is as good (the
            // same bytes: the key is the photo and every setting), and it may be reading it, so it
            // is never replaced. rename(2) of a folder onto a non-empty one fails: the first wins.
            if rename(temporary.path, destination.path) != 0 {
                let failure = errno
                if failure != ENOTEMPTY && failure != EEXIST {
                    throw StorageError(path: destination.path, reason: ErrorReason.words(for: failure))
                }
                if !isSound(key) {
                    // Theirs was damaged (and the look removed it): ours goes in its place.
                    guard rename(temporary.path, destination.path) == 0 || isSound(key) else {
                        throw StorageError(path: destination.path, reason: ErrorReason.words(for: errno))
                    }
                }
            }
            try? manager.removeItem(at: temporary)
            return manifest
        } catch {
            try? manager.removeItem(at: temporary)
            if let error = error as? StorageError { throw error }
            throw StorageError(path: folder.path, reason: ErrorReason.of(error))
        }
    }

    // MARK: Size

    public struct Usage: Sendable, Equatable {
        /// Every entry: processed photos and clips' animated stickers.
        public var entries: Int
        public var bytes: Int64
        /// Of `entries`, how many are clips' animated stickers.
        public var animated = 0
    }

    private struct Listed {
        var url: URL
        var used: Date
        var bytes: Int64
    }

    private func list() -> [Listed] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { !$0.hasPrefix(".") }.map { name in
            let entry = folder.appending(path: name, directoryHint: .isDirectory)
            let used = (try? manager.attributesOfItem(atPath: entry.appending(path: CacheEntryManifest.fileName).path))?[.modificationDate] as? Date
            let files = (try? manager.contentsOfDirectory(atPath: entry.path)) ?? []
            let bytes = files.reduce(Int64(0)) { sum, file in
                sum + ((try? manager.attributesOfItem(atPath: entry.appending(path: file).path))?[.size] as? Int64 ?? 0)
            }
            return Listed(url: entry, used: used ?? .distantPast, bytes: bytes)
        }
    }

    /// How many entries the cache holds and their size on disk.
    @concurrent public func usage() async -> Usage {
        let listed = list()
        return Usage(entries: listed.count, bytes: listed.reduce(0) { $0 + $1.bytes },
                     animated: listed.count { Key.isAnimated($0.url.lastPathComponent) })
    }

    /// Evicts least recently used entries until the cache fits `sizeLimit`, never those named in
    /// `protecting` (the current batch's, which its pack is still to be assembled from); removes
    /// what killed processes left half-written. Returns how many entries were evicted.
    @discardableResult
    @concurrent func trim(protecting: Set<String> = []) async -> Int {
        // Exclusive: one eviction at a time over one listing (two processes trimming at once
        // would each evict down to the limit: twice too much), and no lookup in between.
        CacheReaders.withLock(in: folder, exclusive: true) {
            _ = removeLeftoverEntries()
            var listed = list()
            var total = listed.reduce(Int64(0)) { $0 + $1.bytes }
            guard total > sizeLimit else { return 0 }
            let inUse = protecting.union(CacheReaders.namesInUse(in: folder))
            listed.sort { $0.used < $1.used }
            var evicted = 0
            for entry in listed where total > sizeLimit && !inUse.contains(entry.url.lastPathComponent) {
                guard Self.remove(entry.url) else { continue }
                total -= entry.bytes
                evicted += 1
            }
            return evicted
        }
    }

    /// Removes an entry as one step for readers: renamed out of view first (`.evicting-PID-UUID`,
    /// removed by the next process should this one be killed while deleting its files).
    private static func remove(_ entry: URL) -> Bool {
        let out = entry.deletingLastPathComponent().appending(path: ProcessOwnedName.make(evictingPrefix))
        guard rename(entry.path, out.path) == 0 else { return false }
        try? FileManager.default.removeItem(at: out)
        return true
    }

    static let evictingPrefix = ".evicting-"

    /// Removes every entry no running process is using (see `CacheReaders`; those go with the
    /// next clear or trim after it ends); returns what was removed.
    @concurrent public func clear() async throws(StorageError) -> Usage {
        guard FileManager.default.fileExists(atPath: folder.path) else { return Usage(entries: 0, bytes: 0) }
        if let refusal = AtomicFileWriter.writeRefusal(folder) {
            throw StorageError(path: folder.path, reason: ErrorReason.of(refusal))
        }
        return CacheReaders.withLock(in: folder, exclusive: true) {
            _ = removeLeftoverEntries()
            let inUse = CacheReaders.namesInUse(in: folder)
            var removed = Usage(entries: 0, bytes: 0)
            for entry in list() where !inUse.contains(entry.url.lastPathComponent) && Self.remove(entry.url) {
                removed.entries += 1
                removed.bytes += entry.bytes
                if Key.isAnimated(entry.url.lastPathComponent) { removed.animated += 1 }
            }
            return removed
        }
    }
}
