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
        let written = MaskFiles(folder: maskFolder, madeFolders: madeFolders)
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
            guard rename(temporary.path, outputURL.path) == 0 else {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temporary)
                await written.removeAll()
                throw fail("cannot write \(output): \(reason)", ExitStatus.ioError)
            }
            do { try await written.commit() } catch {
                await written.removeAll()
                throw fail("cannot write \(mask ?? ""): \(ErrorReason.of(error))", ExitStatus.ioError)
            }
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

/// `--mask DIR` for a clip: each used frame's alpha as DIR/NNNN.png. They are written into a
/// hidden folder inside DIR and moved in only once the sticker is made, so a run that fails or is
/// interrupted leaves DIR as it was (an earlier run's masks too), and after one that succeeds DIR's
/// NNNN.png are exactly the frames this sticker uses (an earlier run's others go; no other file is
/// touched). A killed run's hidden folder goes at the next run (`AtomicFileWriter.removeLeftovers`).
/// DIR and its parents go again too where this run made them and it fails.
actor MaskFiles {
    let folder: URL?
    /// The folders this run made, innermost first.
    let madeFolders: [URL]
    /// Where the masks are written until the sticker is made: `DIR/.masks.PID.UUID.partial`.
    private let staging: URL?
    private var names: [String] = []

    init(folder: URL?, madeFolders: [URL]) {
        self.folder = folder
        self.madeFolders = madeFolders
        staging = folder.map { AtomicFileWriter.temporaryURL(for: $0.appending(path: "masks")) }
    }

    func write(_ alpha: Mask, index: Int) throws {
        guard let staging else { return }
        if names.isEmpty { try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false) }
        let name = String(format: "%04d.png", index)
        try AtomicFileWriter.write(try ImageEncoder.png(alpha), to: staging.appending(path: name))
        names.append(name)
    }

    /// Moves the masks into DIR (each rename replaces an earlier run's file of that name at once),
    /// then removes DIR's masks that this sticker does not use.
    func commit() throws {
        guard let folder, let staging, !names.isEmpty else { return }
        for name in names where rename(staging.appending(path: name).path, folder.appending(path: name).path) != 0 {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: String(cString: strerror(errno))])
        }
        try? FileManager.default.removeItem(at: staging)
        let used = Set(names)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where Self.isMaskName(name) && !used.contains(name) {
            try? FileManager.default.removeItem(at: folder.appending(path: name))
        }
        names.removeAll()
    }

    func removeAll() {
        if let staging { try? FileManager.default.removeItem(at: staging) }
        names.removeAll()
        // rmdir(2): only while empty (nothing of anyone else's is removed).
        for made in madeFolders where rmdir(made.path) != 0 { break }
    }

    /// Whether `name` is a frame's mask as `write` names them: four or more digits, `.png`.
    static func isMaskName(_ name: String) -> Bool {
        let stem = name.dropLast(4)
        return name.hasSuffix(".png") && stem.count >= 4 && stem.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
