import AtomicFiles
import ArgumentParser
import ErrorReasons
import Foundation
import Raster
import StickerApp
import StickerKit

/// `make` with clips beside photos: each clip becomes an animated sticker fitted to the target's
/// rules (Telegram WebM, WhatsApp animated WebP, Signal APNG; a plain ZIP gets animated WebP), in
/// packs of their own (`OUT-animated.…`). Each sticker is cached by the clip's bytes and every
/// option that shapes it, so a second run does no work.
extension MakeCommand {
    struct ClipOutcome {
        var report: AnimatedPack.Report?
        var invalid: [MakeReport.Invalid] = []
    }

    @MainActor func makeClipPacks(_ clips: [URL]) async throws -> ClipOutcome {
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
        let shape = style.style
        for (done, clip) in clips.enumerated() {
            progress.update(completed: done, total: clips.count)
            let name = clip.deletingPathExtension().lastPathComponent
            do {
                let work = Task { try await stickers.sticker(clip: clip, rules: rules, style: shape) }
                let interrupts = await InterruptHandler(cancelling: Task { _ = await work.result })
                let result = await withTaskCancellationHandler { await work.result } onCancel: { work.cancel() }
                interrupts.stop()
                if work.isCancelled { throw CancellationError() }
                let made = try result.get()
                inputs.append(.init(name: name, sticker: made.sticker, firstFrame: made.firstFrame, cached: made.cached))
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
        do {
            outcome.report = try AnimatedPack.write(inputs, platform: platform,
                                                    title: (title ?? url.deletingPathExtension().lastPathComponent) + " (animated)",
                                                    author: author, emoji: emoji, output: url)
        } catch .tooFewStickers(let count, let minimum, _) {
            printError("\(count) animated sticker(s): a WhatsApp pack needs at least \(minimum), so no animated pack was written")
        } catch {
            throw fail(error.reason, error.exitStatus)
        }
        for pack in outcome.report?.packs ?? [] {
            await recordPack(URL(fileURLWithPath: pack.file), format: (platform?.rawValue ?? "zip") + "-animated",
                             stickers: pack.stickers.map(\.name), identity: "clips")
        }
        return outcome
    }
}
