import AtomicFiles
import ErrorReasons
import Foundation
import StickerKit

/// Clips' animated stickers as entries of the one disk cache: a folder per clip and settings
/// (`KEY.name`, `-clip-` in it) holding `sticker.EXT`, `first.png` (its first frame on its canvas)
/// and `entry.json`, written and renamed into place whole like a photo's, found under the cache's
/// shared lock, evicted with the photos' (least recently used first) and never while a running
/// process has registered it (`CacheReaders`).
nonisolated extension ProcessedPhotoDiskCache {
    /// A stored animated sticker: its files and figures.
    struct AnimatedEntry: Sendable, Hashable {
        var sticker: URL
        var firstFrame: URL
        var figures: CacheEntryManifest.AnimationFigures
    }

    /// What a clip's entry remembers: its sticker, or that it has no clear subject.
    enum AnimatedOutcome: Sendable, Hashable {
        case sticker(AnimatedEntry)
        case noClearSubject
    }

    /// What is stored for `key`, its access time refreshed; nil when there is nothing (or it is
    /// damaged, or a file of it is gone: it is then removed).
    @concurrent func lookupAnimated(_ key: Key) async -> AnimatedOutcome? {
        // Shared: no eviction (in any process) runs while the entry is found (see CacheReaders).
        CacheReaders.withLock(in: folder, exclusive: false) { findAnimated(key) }
    }

    func findAnimated(_ key: Key) -> AnimatedOutcome? {
        let entry = folder.appending(path: key.name, directoryHint: .isDirectory)
        let manifestURL = entry.appending(path: CacheEntryManifest.fileName)
        guard let data = try? Data(contentsOf: manifestURL) else { return nil }
        guard let manifest = CacheEntryManifest.decode(data), manifest.digest == key.digest,
              manifest.identity == key.identity else {
            try? FileManager.default.removeItem(at: entry)
            return nil
        }
        if manifest.isClipWithoutSubject {
            try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: manifestURL.path)
            return .noClearSubject
        }
        guard let found = manifest.animatedFiles(in: entry),
              FileManager.default.fileExists(atPath: found.sticker.path),
              FileManager.default.fileExists(atPath: found.firstFrame.path) else {
            try? FileManager.default.removeItem(at: entry)
            return nil
        }
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: manifestURL.path)
        return .sticker(AnimatedEntry(sticker: found.sticker, firstFrame: found.firstFrame, figures: found.figures))
    }

    /// Remembers that the clip of `key` has no clear subject.
    @concurrent func storeClipWithoutSubject(for key: Key) async throws(StorageError) {
        _ = try write(key) { _ in CacheEntryManifest.clipWithoutSubject(digest: key.digest, identity: key.identity) }
    }

    /// Stores an animated sticker (`fileExtension`: webp, webm or png) and its first frame's PNG;
    /// returns where they are. Another process's entry for the same key, already there, is kept.
    @concurrent func storeAnimated(_ sticker: Data, fileExtension: String, firstFramePNG: Data,
                                   figures: CacheEntryManifest.AnimationFigures, for key: Key) async throws(StorageError) -> AnimatedEntry {
        let stickerName = "sticker.\(fileExtension)", firstName = "first.png"
        let manifest = try write(key) { temporary in
            try AtomicFileWriter.write(sticker, to: temporary.appending(path: stickerName))
            try AtomicFileWriter.write(firstFramePNG, to: temporary.appending(path: firstName))
            return CacheEntryManifest.animated(digest: key.digest, identity: key.identity, sticker: stickerName,
                                               firstFrame: firstName, figures: figures)
        }
        guard let files = manifest.animatedFiles(in: folder.appending(path: key.name, directoryHint: .isDirectory)) else {
            throw StorageError(path: folder.path, reason: "the entry just written names no animated sticker")
        }
        return AnimatedEntry(sticker: files.sticker, firstFrame: files.firstFrame, figures: files.figures)
    }
}
