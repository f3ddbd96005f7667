import Foundation
import Raster
import StickerKit

/// The cache of animated stickers, shared by `stickers make` and the web app: entries of the one
/// disk cache the processed photos are in (`ProcessedPhotoDiskCache`, `AnimatedCacheEntries`), so
/// clips and photos share its size limit, its least-recently-used trim, `stickers cache` and the
/// protection of entries a running process uses. One entry per clip and every option that shapes
/// its sticker (`AnimatedStickerKey`): the sticker, its first frame on its canvas (a pack's icon,
/// a still preview) and its figures, renamed into place whole, so a process killed mid-store
/// leaves nothing that is read, and its hidden folder goes with the next process's look.
nonisolated public struct AnimatedStickerCache: Sendable {
    public let disk: ProcessedPhotoDiskCache
    /// This process's registry of the entries it uses: trims and clears elsewhere spare them.
    private let readers: CacheReaders

    public init(disk: ProcessedPhotoDiskCache) {
        self.disk = disk
        self.readers = CacheReaders(cacheFolder: disk.folder)
    }

    /// The cache under a cache folder (`StickerPaths.cacheDirectory`): the processed photos'
    /// entries folder, its limit `STICKERS_CACHE_LIMIT`. Where `make` and `serve` keep them.
    public static func inside(cacheDirectory: URL) -> AnimatedStickerCache {
        AnimatedStickerCache(disk: .standard(cacheDirectory: cacheDirectory))
    }

    /// The folder of entries (shared with the processed photos).
    public var folder: URL { disk.folder }

    /// One entry's files.
    public struct Entry: Sendable, Hashable {
        public var sticker: URL
        public var firstFrame: URL
    }

    /// What the cache remembers of a clip.
    enum Hit: Sendable {
        case sticker(FittedAnimation, first: Image, entry: Entry)
        /// The clip has no clear subject (found by an earlier run).
        case noClearSubject
    }

    /// A cached sticker and its first frame, or the remembered verdict that the clip has no clear
    /// subject; nil when there is neither. The entry is registered as this process's before it is
    /// looked up, so no other process evicts it while this one runs.
    @concurrent func cached(_ key: ProcessedPhotoDiskCache.Key) async -> Hit? {
        readers.register(key.name)
        switch await disk.lookupAnimated(key) {
        case nil: return nil
        case .noClearSubject?: return .noClearSubject
        case .sticker(let found)?:
            guard let data = try? Data(contentsOf: found.sticker),
                  let png = try? Data(contentsOf: found.firstFrame),
                  let first = try? ImageDecoder.decode(png) else { return nil }
            let figures = found.figures
            return .sticker(FittedAnimation(data: data, width: figures.width, height: figures.height, frames: figures.frames,
                                            framesPerSecond: figures.fps, quality: figures.quality, scale: figures.scale),
                            first: first, entry: Entry(sticker: found.sticker, firstFrame: found.firstFrame))
        }
    }

    /// Remembers that the clip of `key` has no clear subject (a failed store only costs a later
    /// run the work again).
    @concurrent func rememberNoClearSubject(_ key: ProcessedPhotoDiskCache.Key) async {
        readers.register(key.name)
        try? await disk.storeClipWithoutSubject(for: key)
    }

    /// Stores a sticker whole (`fileExtension`: the rules' webp, webm or png); returns its entry.
    @concurrent func store(_ sticker: FittedAnimation, first: Image, fileExtension: String,
                           key: ProcessedPhotoDiskCache.Key) async throws(StorageError) -> Entry {
        readers.register(key.name)
        let png: Data
        do {
            png = try ImageEncoder.png(first)
        } catch {
            throw StorageError(path: disk.folder.path, reason: "the first frame cannot be encoded: \(error)")
        }
        let figures = CacheEntryManifest.AnimationFigures(width: sticker.width, height: sticker.height, frames: sticker.frames,
                                                          fps: sticker.framesPerSecond, quality: sticker.quality, scale: sticker.scale)
        let stored = try await disk.storeAnimated(sticker.data, fileExtension: fileExtension, firstFramePNG: png,
                                                  figures: figures, for: key)
        return Entry(sticker: stored.sticker, firstFrame: stored.firstFrame)
    }

    /// Removes what killed processes left half-written in the entries folder.
    @concurrent func removeLeftovers() async {
        await disk.removeLeftovers()
    }

    /// Evicts least recently used entries (clips and photos alike) past the size limit, never one a
    /// running process (this one included) has registered.
    @discardableResult
    @concurrent public func trim() async -> Int {
        await disk.trim()
    }
}
