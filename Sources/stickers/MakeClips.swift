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
        var rules = platform.map(AnimatedStickerRules.of) ?? AnimatedStickerRules(
            platform: .telegram, fileExtension: "webp", canvas: CanvasFit(), maximumBytes: Int.max, maximumSeconds: 3, maximumFramesPerSecond: 30)
        if platform == nil { rules.maximumBytes = Int.max }
        var maker = ClipStickerMaker(predictor: predictor, style: style.style)
        maker.canvas = rules.canvas
        let piece = ClipPiece(start: 0, duration: rules.maximumSeconds)
        let cacheFolder = noCache ? nil : StickerPaths.cacheDirectory(explicit: cacheDir).appending(path: "clips", directoryHint: .isDirectory)
        let scratch = FileManager.default.temporaryDirectory
        let progress = TerminalProgress(label: "Making animated stickers")
        var inputs: [AnimatedPack.Input] = []
        for (done, clip) in clips.enumerated() {
            progress.update(completed: done, total: clips.count)
            let name = clip.deletingPathExtension().lastPathComponent
            do {
                let key = try Self.cacheKey(clip: clip, rules: rules, style: style.style, maker: maker)
                if let cacheFolder, let hit = Self.cached(key, in: cacheFolder) {
                    inputs.append(.init(name: name, sticker: hit.sticker, firstFrame: hit.first, cached: true))
                    continue
                }
                let work = Task { () -> (FittedAnimation, Image) in
                    let made = try await maker.frames(clip: clip, piece: piece)
                    let fitted = try await AnimatedStickerFitter.fit(made.frames, framesPerSecond: made.framesPerSecond,
                                                                     rules: rules, scratch: scratch)
                    return (fitted, made.frames[0])
                }
                let interrupts = await InterruptHandler(cancelling: Task { _ = await work.result })
                let result = await withTaskCancellationHandler { await work.result } onCancel: { work.cancel() }
                interrupts.stop()
                if work.isCancelled { throw CancellationError() }
                let (fitted, first) = try result.get()
                if let cacheFolder { Self.store(fitted, first: first, key: key, in: cacheFolder) }
                inputs.append(.init(name: name, sticker: fitted, firstFrame: first, cached: false))
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

    /// The clip's bytes and every option that shapes its sticker.
    static func cacheKey(clip: URL, rules: AnimatedStickerRules, style: StickerStyle, maker: ClipStickerMaker) throws -> String {
        let digest = ContentDigest(try Data(contentsOf: clip, options: .mappedIfSafe))
        let options = "\(rules)|\(style)|\(maker.tracking)|\(maker.workingSide)|\(maker.maximumFramesPerSecond)|v1"
        return digest.hex + "-" + ContentDigest(Data(options.utf8)).hex
    }

    /// A cached sticker: KEY.bin (the file), KEY.json (its figures), KEY.png (its first frame).
    static func cached(_ key: String, in folder: URL) -> (sticker: FittedAnimation, first: Image)? {
        guard let meta = try? Data(contentsOf: folder.appending(path: "\(key).json")),
              let figures = try? JSONDecoder().decode(CachedFigures.self, from: meta),
              let data = try? Data(contentsOf: folder.appending(path: "\(key).bin")),
              let png = try? Data(contentsOf: folder.appending(path: "\(key).png")),
              let first = try? ImageDecoder.decode(png) else { return nil }
        return (FittedAnimation(data: data, width: figures.width, height: figures.height, frames: figures.frames,
                                framesPerSecond: figures.fps, quality: figures.quality, scale: figures.scale), first)
    }

    /// Stores atomically (the figures last: an entry without them is no entry); a failure only costs a later run.
    static func store(_ sticker: FittedAnimation, first: Image, key: String, in folder: URL) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let figures = CachedFigures(width: sticker.width, height: sticker.height, frames: sticker.frames,
                                    fps: sticker.framesPerSecond, quality: sticker.quality, scale: sticker.scale)
        guard let png = try? ImageEncoder.png(first), let meta = try? JSONEncoder().encode(figures) else { return }
        try? AtomicFileWriter.write(sticker.data, to: folder.appending(path: "\(key).bin"))
        try? AtomicFileWriter.write(png, to: folder.appending(path: "\(key).png"))
        try? AtomicFileWriter.write(meta, to: folder.appending(path: "\(key).json"))
    }

    nonisolated struct CachedFigures: Codable {
        var width: Int, height: Int, frames: Int, fps: Double, quality: Int, scale: Double
    }
}
