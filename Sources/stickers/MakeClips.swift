import AtomicFiles
import ArgumentParser
import ErrorReasons
import Foundation
import Raster
import StickerApp
import StickerKit

/// `make` with clips beside photos: each clip becomes an animated sticker fitted to the target's
/// rules — Telegram WebM, WhatsApp animated WebP, Signal APNG, in packs of their own
/// (`OUT-animated.…`); the plain ZIP (no `--for`) holds each clip's animated WebP beside the
/// photos' stickers, as `NAME.sticker.webp` (the one the web app's card plays). Each sticker is
/// cached by the clip's bytes and every option that shapes it, so a second run does no work.
extension MakeCommand {
    struct ClipOutcome {
        var report: AnimatedPack.Report?
        var invalid: [MakeReport.Invalid] = []
        /// The plain ZIP's clips, made but not yet packed: they go in the pack after the photos.
        var zipInputs: [AnimatedPack.Input] = []

        var zipItems: [StickerPack.Item] { zipInputs.map { .animated(name: $0.name, webp: .data($0.sticker.data)) } }

        /// `report` once the ZIP at `output` holds `zipInputs` after the stickers named
        /// `photoNames` (the entry names are made distinct over them all, in that order).
        mutating func reportZip(after photoNames: [String], output: URL, title: String) {
            guard !zipInputs.isEmpty else { return }
            let names = StickerPack.uniqueFileNames(photoNames + zipInputs.map(\.name)).suffix(zipInputs.count)
            report = AnimatedPack.zipReport(zipInputs, files: names.map { "\($0).sticker.webp" }, output: output, title: title)
        }
    }

    /// Makes the clips' stickers; writes their packs (a messenger's), or — a plain ZIP — keeps them
    /// for the photos' pack, or writes that pack with them alone (`alone`: no photos were given).
    @MainActor func makeClipPacks(_ clips: [URL], alone: Bool) async throws -> ClipOutcome {
        var outcome = ClipOutcome()
        let predictor: U2NetSaliency
        switch await StickerCommand.loadModel(explicitPath: nil) {
        case .success(let loaded): predictor = loaded
        case .failure(let error): throw fail("the cut-out model cannot be used: \(error)", ExitStatus.unavailable)
        }
        let platform = target.platform
        let rules = ClipStickers.rules(for: platform)
        let stickers = ClipStickers(maker: ClipStickerMaker(predictor: predictor), cache: noCache ? nil : AnimatedStickerCache.inside(
            cacheDirectory: StickerPaths.cacheDirectory(explicit: cacheDir)))
        let progress = TerminalProgress(label: "Making animated stickers")
        var inputs: [AnimatedPack.Input] = []
        var madeFrom: [URL] = []  // the clip of each input
        let shape = style.style
        for (done, clip) in clips.enumerated() {
            progress.update(completed: done, total: clips.count)
            let name = clip.deletingPathExtension().lastPathComponent
            do {
                let work = Task { try await stickers.sticker(clip: clip, rules: rules, style: shape) }
                // Ctrl-C cancels the waiter, which cancels the work: an unstructured task does not
                // inherit cancellation, so cancelling a bare `Task { await work.result }` left the
                // clip (and the pack after it) running to the end.
                let waiter = Task { await withTaskCancellationHandler { _ = await work.result } onCancel: { work.cancel() } }
                let interrupts = await InterruptHandler(cancelling: waiter)
                let result = await withTaskCancellationHandler { await work.result } onCancel: { work.cancel() }
                interrupts.stop()
                if work.isCancelled { throw CancellationError() }
                let made = try result.get()
                inputs.append(.init(name: name, sticker: made.sticker, firstFrame: made.firstFrame, cached: made.cached))
                madeFrom.append(clip)
            } catch let error as ClipError {
                switch error {
                case .toolMissing(let tool):
                    throw fail("\(clip.path) is a clip and \(tool) is not on PATH: install ffmpeg (apt-get install ffmpeg)", ExitStatus.unavailable)
                case .cutOut(.modelFailed(let reason)):
                    throw fail("the cut-out model cannot run: \(reason)", ExitStatus.unavailable)
                default:
                    outcome.invalid.append(.init(file: clip.path, reason: "\(error)"))
                }
            } catch is CancellationError {
                throw fail("interrupted: no pack written", ExitCode(130))
            } catch {
                outcome.invalid.append(.init(file: clip.path, reason: ErrorReason.of(error)))
            }
        }
        progress.finish()
        guard !inputs.isEmpty else { return outcome }
        let url = URL(fileURLWithPath: output)
        guard let messenger = platform else {
            outcome.zipInputs = inputs
            if alone { try await writeClipZip(&outcome, to: url, cache: stickers.cache) }
            return outcome
        }
        do {
            outcome.report = try AnimatedPack.write(inputs, platform: messenger,
                                                    title: (title ?? url.deletingPathExtension().lastPathComponent) + " (animated)",
                                                    author: author, emoji: emoji, output: url)
        } catch .tooFewStickers(let count, let minimum, _) {
            let reason = "\(count) animated sticker(s): a WhatsApp pack needs at least \(minimum), so no animated pack was written"
            // Listed (and said) with the inputs left out, so `--json` says where each clip went.
            outcome.invalid += madeFrom.map { .init(file: $0.path, reason: reason) }
        } catch {
            throw fail(error.reason, error.exitStatus)
        }
        for pack in outcome.report?.packs ?? [] {
            await recordPack(URL(fileURLWithPath: pack.file), format: messenger.rawValue + "-animated",
                             stickers: pack.stickers.map(\.name), identity: "clips")
        }
        return outcome
    }

    /// The plain ZIP of clips alone (no photos): their animated WebPs, the clips that could not be
    /// used listed in its manifest; the cache trimmed after, as a photos' `make` does.
    @MainActor private func writeClipZip(_ outcome: inout ClipOutcome, to url: URL, cache: AnimatedStickerCache?) async throws {
        let invalid = outcome.invalid.map {
            StickerPack.InvalidPhoto(name: URL(fileURLWithPath: $0.file).deletingPathExtension().lastPathComponent, reason: $0.reason)
        }
        do {
            try await MakeCaptions.writePack(items: outcome.zipItems, invalid: invalid, to: url)
        } catch is CancellationError {
            throw fail("interrupted: no pack written", ExitStatus.interrupted)
        } catch {
            throw fail("cannot write \(output): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
        await cache?.trim()
        outcome.reportZip(after: [], output: url, title: title ?? url.deletingPathExtension().lastPathComponent)
        await recordPack(url, format: PackTarget.zip.rawValue, stickers: outcome.zipInputs.map(\.name), identity: "clips")
    }
}
