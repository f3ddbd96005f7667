import AtomicFiles
import ArgumentParser
import ErrorReasons
import Foundation
import Raster
import StickerKit

extension StickerCommand {
    /// `stickers sticker CLIP -o OUT.webp|.webm|.png`: the clip's subject as an animated sticker.
    @MainActor func runClip(output: String) async throws {
        let outputURL = URL(fileURLWithPath: output)
        guard let format = AnimatedFormat(pathExtension: outputURL.pathExtension) else {
            throw fail("an animated sticker is written as .webp (animated WebP), .webm (VP9 with alpha) or .png (APNG), not '\(output)'",
                       ExitStatus.usage)
        }
        if listSubjects { throw fail("--list-subjects takes a photo, not a clip", ExitStatus.usage) }
        if gradient != nil { throw fail("--gradient takes a photo, not a clip", ExitStatus.usage) }
        let predictor: U2NetSaliency
        switch await Self.loadModel(explicitPath: model) {
        case .success(let loaded): predictor = loaded
        case .failure(let error): throw fail("the cut-out model cannot be used: \(error)", ExitStatus.unavailable)
        }
        let first: ClipSubjectTracker.FirstFrameChoice
        switch (subject, point) {
        case (.rank(let n)?, _): first = .choice(.ranks([n - 1]))
        case (.all?, _): first = .choice(.all)
        case (nil, let point?): first = .point(x: point.x, y: point.y)
        default: first = .choice(.main)
        }
        let maskFolder = mask.map { URL(fileURLWithPath: $0, isDirectory: true) }
        // The folders made here go again if the sticker fails (those the user had stay).
        var madeFolders: [URL] = []
        var folder = maskFolder
        while let missing = folder, !FileManager.default.fileExists(atPath: missing.path), missing.path != "/" {
            madeFolders.append(missing)
            folder = missing.deletingLastPathComponent()
        }
        if let maskFolder {
            do { try FileManager.default.createDirectory(at: maskFolder, withIntermediateDirectories: true) } catch {
                throw fail("cannot write \(maskFolder.path): \(ErrorReason.of(error))", ExitStatus.ioError)
            }
        }
        // A killed run's masks, never moved in, go now.
        if let maskFolder { AtomicFileWriter.removeLeftovers(in: maskFolder) }
        let written = MaskFiles(folder: maskFolder, madeFolders: madeFolders, output: outputURL)
        let maker = ClipStickerMaker(predictor: predictor, style: style.style)
        let clip = URL(fileURLWithPath: image)
        let piece = ClipPiece(start: start ?? 0, duration: duration ?? 3)
        let temporary = AtomicFileWriter.temporaryURL(for: outputURL)
        AtomicFileWriter.removeLeftovers(in: outputURL.deletingLastPathComponent())
        let progress = TerminalProgress(label: "frames")
        let expected = max(1, Int(piece.duration * maker.maximumFramesPerSecond))
        let outcome = ClipOutcome()
        var handler: ClipStickerMaker.MaskHandler?
        if maskFolder != nil { handler = { index, alpha in try await written.write(alpha, index: index) } }
        let report: @Sendable (Int) -> Void = { done in
            Task { @MainActor in progress.update(completed: min(done, expected), total: expected) }
        }
        let masks = handler
        let work = Task { () -> Void in
            do {
                let summary = try await maker.make(clip: clip, piece: piece, first: first, format: format, output: temporary,
                                                   masks: masks, progress: report)
                outcome.result = .success(summary)
            } catch {
                outcome.result = .failure(error)
            }
        }
        let interrupts = await InterruptHandler(cancelling: work)
        await work.value
        interrupts.stop()
        progress.finish()
        switch outcome.result ?? .failure(CancellationError()) {
        case .success:
            // The masks in, then the sticker; either failing, the masks replaced are put back.
            do { try await written.moveIn() } catch {
                try? FileManager.default.removeItem(at: temporary)
                await written.rollBack()
                throw fail("cannot write the masks: \(ErrorReason.of(error))", ExitStatus.ioError)
            }
            guard rename(temporary.path, outputURL.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                await written.rollBack()
                throw fail("cannot write \(output): \(reason)", ExitStatus.ioError)
            }
            await written.finish()
        case .failure(let error):
            try? FileManager.default.removeItem(at: temporary)
            await written.removeAll()
            if work.isCancelled { throw fail("interrupted: nothing written", ExitCode(130)) }
            if case .noFrames? = error as? ClipError, piece.start > 0, let info = try? await ClipInfo.probe(clip) {
                // The usual cause: a start at or past the clip's last frame. Say how long the clip is.
                let length = info.duration.map { String(format: "%.2f s", $0) } ?? "shorter"
                throw fail("\(image): no frame starts at or after --start \(String(format: "%g", piece.start)) s "
                           + "(the clip lasts \(length), \(String(format: "%g", (info.framesPerSecond * 100).rounded() / 100)) frames a second): start earlier",
                           ExitStatus.dataError)
            }
            throw clipFailure(error)
        }
    }

    /// The exit status and message for a clip that could not be made.
    @MainActor private func clipFailure(_ error: any Error) -> Error {
        if error is CancellationError { return fail("interrupted", ExitCode(130)) }
        guard let error = error as? ClipError else {
            if let codec = error as? ImageCodecError, case .codecUnavailable(let reason) = codec {
                return fail("\(image): \(reason)", ExitStatus.unavailable)
            }
            return fail("cannot write \(output ?? ""): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
        switch error {
        case .toolMissing(let tool):
            return fail("\(image) is a clip and \(tool) is not on PATH: install ffmpeg (apt-get install ffmpeg)", ExitStatus.unavailable)
        case .unreadable, .noFrames, .tooLarge:
            return fail("\(image): \(error)", ExitStatus.dataError)
        case .cutOut(.noClearSubject):
            return fail("\(image): no clear subject to cut out (nothing stands out from the background)", ExitStatus.dataError)
        case .cutOut(.modelFailed(let reason)):
            return fail("the cut-out model cannot run: \(reason)", ExitStatus.unavailable)
        case .cutOut(.noSuchSubject(.pointOutsidePhoto(let x, let y, let width, let height))):
            return fail("--point \(x),\(y) is outside the clip's first frame (\(width)×\(height) pixels)", ExitStatus.usage)
        case .cutOut(let reason):
            return fail("\(image): \(reason)", ExitStatus.dataError)
        case .encoding:
            return fail("\(image): \(error)", ExitStatus.ioError)
        }
    }
}

/// What the clip's work ended with (set on the main actor by its task).
final class ClipOutcome {
    var result: Result<AnimatedStickerSummary, any Error>?
}
