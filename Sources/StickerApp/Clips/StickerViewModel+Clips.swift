import AtomicFiles
import Foundation
import Raster
import StickerKit

/// Clips in the Stickers tab: a clip is a photo-like item whose sticker is animated (an animated
/// WebP the page shows as it plays, its first frame as the still), made off the main actor by
/// `ClipStickers` through the animated-sticker cache, so a second run (or a restart) does no work.
extension StickerViewModel {
    /// Whether the photo's bytes (or its file's name, for containers without magic) are a clip's.
    func isClip(_ photo: SelectedPhoto, data: Data) -> Bool {
        let name = if case .file(let url) = photo.source { url.path } else { photo.name }
        return ClipDetection.isClip(head: data, name: name)
    }

    /// The clip's plain animated sticker, as the photo's outcome. No ffmpeg, or a model that cannot
    /// run, is the engine's failure (tried again by the next batch, the reason saying what to
    /// install); an unreadable clip or one with no subject is the clip's own verdict.
    func clipOutcome(for photo: SelectedPhoto, data: Data, style: StickerStyle? = nil) async -> Outcome {
        guard let clipStickers else {
            return .engineFailed("clips cannot be made into stickers here: the cut-out engine is not available for them")
        }
        do {
            let files = try await Self.animatedFiles(clipStickers, photo: photo, data: data, style: style)
            return .processed(files.files, cached: files.cached)
        } catch let error as ClipError {
            switch error {
            case .toolMissing: return .engineFailed(error.description)
            case .cutOut(.modelFailed(let reason)): return .engineFailed("the cut-out model cannot run: \(reason)")
            case .cutOut(.noClearSubject):
                return .invalid(.clip("no clear subject to cut out of the clip (nothing stands out from the background)"))
            default: return Task.isCancelled ? .cancelled : .invalid(.clip(error.description))
            }
        } catch let error as StorageError {
            return .failed(error)
        } catch is CancellationError {
            return .cancelled
        } catch {
            return Task.isCancelled ? .cancelled : .engineFailed(String(describing: error))
        }
    }

    /// Restyles a processed clip: its sticker made again in `style` (from the cache when made
    /// before). Made again rather than redrawn from kept masks: keeping every frame and its alpha
    /// would cost tens of MB a clip in the cache, while the clip itself is kept anyway and the
    /// result is cached by style, so going back to a style seen before does no work.
    func restyleClip(_ id: SelectedPhoto.ID, with style: StickerStyle) async throws(VariantError) {
        guard let photo = selection.first(where: { $0.id == id }), let clipStickers else { throw .notProcessed }
        guard let data = await loadPhoto(photo) else { throw .notProcessed }
        let made: (files: StickerFiles, cached: Bool)
        do {
            made = try await Self.animatedFiles(clipStickers, photo: photo, data: data, style: style)
        } catch {
            throw .notWritten("\(error)")
        }
        guard replaceFiles(of: id, with: made.files) else { throw .notProcessed }
    }

    /// The clip's sticker in `style` (nil: the default) as the tab's files: the cache entry's
    /// animated WebP and first frame. An in-memory clip (an upload without a library) is written
    /// to a file of this process's for ffmpeg first, and removed after.
    @concurrent static func animatedFiles(_ clipStickers: ClipStickers, photo: SelectedPhoto, data: Data,
                                          style: StickerStyle?) async throws -> (files: StickerFiles, cached: Bool) {
        let (clip, temporary) = try clipFile(photo, data: data, scratch: clipStickers.scratch)
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        let made = try await clipStickers.sticker(clip: clip, rules: ClipStickers.plainRules, style: style ?? StickerStyle(),
                                                  storeRequired: true)
        guard let entry = made.entry else { throw StorageError(path: clipStickers.scratch.path, reason: "no cache for clips") }
        var files = StickerFiles(sticker: entry.sticker, gradient: entry.firstFrame, mask: nil, colorScheme: PhotoColorScheme(colors: []))
        files.isAnimated = true
        files.style = style
        return (files, made.cached)
    }

    /// The clip's file for ffmpeg: its own, or (an in-memory upload) a file of this process's
    /// written with its bytes, which the caller removes (`temporary`).
    nonisolated static func clipFile(_ photo: SelectedPhoto, data: Data, scratch: URL) throws -> (clip: URL, temporary: URL?) {
        switch photo.source {
        case .file(let url): return (url, nil)
        case .data:
            // Named by this process: what a killed one left is removed here, never a running one's.
            ProcessOwnedName.removeLeftovers(in: scratch, prefix: "stickers-clip-")
            let url = scratch.appending(path: ProcessOwnedName.make("stickers-clip-"))
            try data.write(to: url)
            return (url, url)
        }
    }

    /// Whether any photo is done as an animated sticker.
    public var hasAnimatedStickers: Bool {
        selection.contains { state(of: $0.id).files?.isAnimated == true }
    }
}
