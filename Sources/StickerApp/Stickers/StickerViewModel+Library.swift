import Foundation
import StickerKit
import StickerLibrary

extension StickerViewModel {
    /// What `restore(from:)` put back: each photo's content digest (by which its result is
    /// recorded), and the photos whose result the library already holds.
    public struct LibraryRestoration: Sendable {
        public var digests: [SelectedPhoto.ID: String] = [:]
        public var recorded: Set<SelectedPhoto.ID> = []
    }

    /// Shows what the library holds from earlier runs: the photos (uploads from the library's own
    /// copy, folder photos from their file) and, for those made with the same engine and options,
    /// their stickers as the person last saw them — the subjects chosen, the style picked, the
    /// brush strokes and the caption included. The rest are pending and will come from the cache when processed.
    public func restore(from library: StickerLibrary) async throws(LibraryError) -> LibraryRestoration {
        let photos = try await library.photos()
        let results = try await library.results(identity: cache.identity)
        var restoration = LibraryRestoration()
        var selection: [SelectedPhoto] = []
        var made: [SelectedPhoto.ID: StickerFiles] = [:]
        var invalid: [SelectedPhoto.ID: String] = [:]
        for photo in photos {
            guard let url = photo.storedFile.map(library.files.url) ?? photo.sourcePath.map({ URL(fileURLWithPath: $0) }) else { continue }
            selection.append(SelectedPhoto(id: photo.id, name: photo.name, source: .file(url)))
            restoration.digests[photo.id] = photo.digest
            guard let result = results[photo.digest] else { continue }
            switch result.outcome {
            case .processed:
                // The cache entry, when still there, holds the subjects (and the first cut-out).
                let entry = await cache.storedFiles(digest: photo.digest)
                guard let files = await LibraryStickerRecords.files(of: result, cacheEntry: entry, in: library.files) else {
                    continue  // its files are gone: the photo is made again
                }
                made[photo.id] = files
            case .unusable:
                invalid[photo.id] = result.reason ?? "cannot become a sticker"
            }
            restoration.recorded.insert(photo.id)
        }
        select(selection)
        restore(made, invalid: invalid)
        return restoration
    }

    /// Records in `library` what the photos `digests` names are now: a processed photo's files
    /// (copied into the library's content-addressed files, the cut-out, the subjects chosen and
    /// the style included), or why a photo cannot be used. Pending photos and engine failures
    /// are not the photo's verdict and are left out. Returns the photos recorded; which those are
    /// is decided before the first suspension, so a caller can mark them at once.
    @discardableResult
    public func record(_ digests: [SelectedPhoto.ID: String], in library: StickerLibrary) async throws(LibraryError) -> Set<SelectedPhoto.ID> {
        var due: [LibraryStickerRecords.Due] = []
        var ids: Set<SelectedPhoto.ID> = []
        for photo in selection {
            guard let digest = digests[photo.id] else { continue }
            switch state(of: photo.id) {
            case .done(let files, _): due.append(.init(digest: digest, files: files, reason: nil))
            case .invalid(let problem): due.append(.init(digest: digest, files: nil, reason: problem.reason))
            case .waiting, .working, .engineFailed: continue
            }
            ids.insert(photo.id)
        }
        guard !due.isEmpty else { return ids }
        let results = try await LibraryStickerRecords.results(due, identity: cache.identity, into: library)
        try await library.recordResults(results)
        return ids
    }
}

/// How a processed photo's files are kept in the library and found again after a restart.
nonisolated enum LibraryStickerRecords {
    struct Due: Sendable {
        var digest: String
        var files: StickerFiles?
        var reason: String?
    }

    /// The library records of `due`, their files copied into the library's files first.
    @concurrent static func results(_ due: [Due], identity: String, into library: StickerLibrary) async throws(LibraryError) -> [LibraryResult] {
        let store = library.files
        func stored(_ url: URL?) throws(LibraryError) -> String? {
            guard let url else { return nil }
            return try store.importFile(url)
        }
        var results: [LibraryResult] = []
        for item in due {
            guard let files = item.files else {
                results.append(LibraryResult(photoDigest: item.digest, identity: identity, outcome: .unusable, reason: item.reason))
                continue
            }
            results.append(LibraryResult(
                photoDigest: item.digest, identity: identity, outcome: .processed,
                stickerFile: try stored(files.sticker), gradientFile: try stored(files.gradient), maskFile: try stored(files.mask),
                colors: files.colorScheme.colors, cutOutFile: try stored(files.cutOut),
                chosenSubjects: files.chosenSubjects, style: files.style.map(LibraryStyle.init),
                caption: files.caption.map(LibraryCaption.init), edits: files.edits, chosenPoint: files.chosenPoint))
        }
        return results
    }

    /// A processed photo's files as its record names them — what the person last saw, the choice
    /// and style with it — completed from its cache entry (the subjects, which only the cache
    /// keeps; the cut-out of a record made before the library kept it). Nil when the record's
    /// sticker is gone and there is no cache entry either.
    @concurrent static func files(of result: LibraryResult, cacheEntry: StickerFiles?, in store: ContentStore) async -> StickerFiles? {
        func existing(_ name: String?) -> URL? {
            guard let url = name.map(store.url), FileManager.default.fileExists(atPath: url.path) else { return nil }
            return url
        }
        guard let sticker = existing(result.stickerFile), let gradient = existing(result.gradientFile) else {
            return cacheEntry  // the library's copies are gone: as first made, from the cache
        }
        var files = StickerFiles(sticker: sticker, gradient: gradient, mask: existing(result.maskFile) ?? cacheEntry?.mask,
                                 cutOut: existing(result.cutOutFile) ?? cacheEntry?.cutOut, subjects: cacheEntry?.subjects,
                                 colorScheme: PhotoColorScheme(colors: result.colors ?? []))
        files.chosenSubjects = result.chosenSubjects
        files.style = result.style?.style ?? cacheEntry?.style
        files.caption = result.caption?.caption
        files.edits = result.edits
        files.chosenPoint = result.chosenPoint
        // A clip's sticker is recorded as any other; its animated WebP says what it is.
        files.isAnimated = ClipDetection.isAnimatedWebP((try? FileHandle(forReadingFrom: sticker).read(upToCount: 21)) ?? Data())
        return files
    }
}
