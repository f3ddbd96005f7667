import AtomicFiles
import ArgumentParser
import ErrorReasons
import Foundation
import Observation
import StickerApp
import StickerKit
import StickerLibrary

/// `stickers make INPUT... -o PACK.zip`: the sticker-pack app on the command line, driven through
/// the same `StickerViewModel` a GUI uses.
struct MakeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make",
        abstract: "Make a sticker pack (ZIP) from photos and folders of photos.",
        discussion: """
            For each photo the pack holds NAME.sticker.png (the subject cut out, with a white outline), \
            NAME.gradient.png (the sticker on a gradient of its colours), for each clip (a video or \
            GIF) NAME.sticker.webp (its animated sticker), and palettes.json and manifest.json for \
            all. Photos that cannot be used are listed and skipped.

            --for whatsapp|telegram|signal makes a pack that app accepts instead: WebP stickers fitted \
            under its size limit (WhatsApp: .wastickers files of 3 to 30 stickers; more photos make \
            OUT-1, OUT-2, …). Needs libwebp (Debian: libwebp7).
            """
    )

    @Argument(help: "Image files, or folders searched recursively for .jpg/.jpeg/.png/.webp files.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Where to write the pack (.zip).")
    var output: String

    @Option(help: "Dominant colours per photo (3…10).")
    var colors = 5

    @Option(help: "Photos processed at once (default: one per core).")
    var jobs: Int?

    @Flag(help: "Print a JSON report on standard output.")
    var json = false

    @Flag(help: "Neither use nor fill the processed-photo cache (the work is done again).")
    var noCache = false

    @Option(help: ArgumentHelp("The processed-photo cache's folder (default: $\(StickerPaths.cacheVariable), else $XDG_CACHE_HOME/stickers).", valueName: "DIR"))
    var cacheDir: String?

    @Option(help: ArgumentHelp("The library the pack is recorded in (default: $\(StickerPaths.dataVariable), else $XDG_DATA_HOME/stickers).",
                               valueName: "DIR"))
    var dataDir: String?

    @OptionGroup(title: "Style (every sticker in the pack)")
    var style: StyleOptions

    @OptionGroup(title: "Captions")
    var captionOptions: MakeCaptionOptions

    @Option(help: "Which subjects each sticker keeps: main (what suits a photo of one subject) or all.")
    var subject = MakeSubjects.main

    @Option(name: .customLong("for"), help: "What the pack is for: zip, whatsapp, telegram or signal.")
    var target: PackTarget = .zip

    @Option(help: "The pack's title (messenger packs; default: OUT's name).")
    var title: String?

    @Option(help: "The pack's author (messenger packs).")
    var author = "Stickers"

    @Option(help: "One emoji for every sticker (messenger packs; default: one guessed per photo).")
    var emoji: String?

    func validate() throws {
        if let emoji, !StickerEmoji.isSingleEmoji(emoji) { throw ValidationError("--emoji must be exactly one emoji") }
        guard (3...10).contains(colors) else { throw ValidationError("--colors must be between 3 and 10") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    @MainActor func run() async throws {
        AllocatorTuning.oneHeapKeptForReuse()
        var collected = PhotoInputs.collect(inputs)
        try checkOutput(against: collected.files + collected.clips)
        guard !collected.files.isEmpty || !collected.missing.isEmpty || !collected.clips.isEmpty else {
            throw fail("no photos (.jpg, .jpeg, .png, .webp) found in \(inputs.joined(separator: ", "))", ExitStatus.dataError)
        }
        // Clips beside the photos: animated stickers, in packs of their own or, a plain ZIP, in
        // the photos' pack (MakeClips.swift).
        let clips = collected.clips + collected.files.filter { ClipDetection.isClip(path: $0.path) }
        collected.files.removeAll { ClipDetection.isClip(path: $0.path) }
        var animated = ClipOutcome()
        if !clips.isEmpty {
            animated = try await makeClipPacks(clips, alone: collected.files.isEmpty)
            if collected.files.isEmpty {
                for invalid in animated.invalid { printError("skipped \(invalid.file): \(invalid.reason)") }
                guard let report = animated.report else {
                    throw fail("none of the \(clips.count) clip(s) could be made into a sticker", ExitStatus.dataError)
                }
                try AnimatedOnlyReport(animated: report, invalid: animated.invalid).print(json: json)
                return
            }
        }
        let captions = try captionOptions.captions(for: collected.files)

        // libwebp and a writable folder are checked before any photo is processed.
        if target.platform != nil {
            do { try MessengerPack.preflight(output: URL(fileURLWithPath: output)) } catch {
                throw fail(error.reason, error.exitStatus)
            }
        } else if let refusal = AtomicFileWriter.writeRefusal(URL(fileURLWithPath: output).deletingLastPathComponent()) {
            throw fail("cannot write \(output): \(ErrorReason.of(refusal)); nothing was done", ExitStatus.ioError)
        }

        let jobs = min(self.jobs ?? ProcessInfo.processInfo.activeProcessorCount, max(1, collected.files.count))
        var processor: PhotoProcessor
        do {
            processor = try await StickerEngine.photoProcessor(colorCount: colors, concurrentPhotos: jobs,
                                                               style: style.style, log: { printError($0) })
        } catch {
            throw fail("\(error)", ExitStatus.unavailable)
        }
        processor.subjectExtractor.choice = subject == .all ? .all : .main

        // Each photo's PNGs are written to the cache as it finishes; the model keeps only where
        // they are, and the pack is assembled from those files.
        let cache = noCache ? ProcessedPhotoCache(processor: processor, keeping: [.sticker, .gradient])
            : ProcessedPhotoCache(processor: processor, disk: .standard(cacheDirectory: StickerPaths.cacheDirectory(explicit: cacheDir)))
        let model = StickerViewModel(cache: cache, maxConcurrentJobs: jobs)
        let photos = collected.files.map(SelectedPhoto.init(file:))
        model.select(photos)

        let progress = TerminalProgress(label: "Making stickers")
        let drawing = Task {
            for await value in Observations({ model.progress }) {
                progress.update(completed: value.completed, total: value.total)
            }
        }
        let batch = Task { await model.processAllPhotos() }
        let interrupts = await InterruptHandler(cancelling: batch)
        await batch.value
        interrupts.stop()
        drawing.cancel()
        progress.finish()

        // The pack is assembled from the cache's files, so a cache that cannot be written (a full
        // disk, a read-only folder) stops `make` as a full pack disk does: exit 74 with the cause.
        if let failure = model.storageFailure {
            throw fail("\(failure); no pack written (the processed-photo cache holds each photo's files until "
                       + "they are packed: --cache-dir DIR for another folder, or --no-cache for a temporary one)", ExitStatus.ioError)
        }
        if batch.isCancelled {
            throw fail("interrupted: no pack written", ExitStatus.interrupted)
        }

        var report = MakeReport(output: output, fromCache: model.fromCache.count)
        report.animated = animated.report
        for missing in collected.missing { report.invalid.append(.init(file: missing.path, reason: missing.reason)) }
        for photo in photos {
            if let problem = model.state(of: photo.id).problem { report.invalid.append(.init(file: photo.path, reason: problem.reason)) }
        }
        // The model could not run: a resource problem (69), not unusable photos (65); no pack.
        if let failure = model.engineFailure {
            throw fail("the cut-out model cannot run: \(failure)", ExitStatus.unavailable)
        }
        report.invalid += animated.invalid
        for invalid in report.invalid { printError("skipped \(invalid.file): \(invalid.reason)") }

        // A messenger's animated pack already written is a result: the photos are listed, not fatal.
        guard !model.processedPhotos.isEmpty || !animated.zipInputs.isEmpty || animated.report != nil else {
            report.animated = animated.report
            if json { try report.print() }
            throw fail("none of the \(photos.count + collected.missing.count) photo(s) could be made into a sticker", ExitStatus.dataError)
        }

        let url = URL(fileURLWithPath: output)
        let captionFolder = FileManager.default.temporaryDirectory.appending(path: "stickers-captions-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: captionFolder) }
        let captioned = try await captionedStickers(photos, model: model, captions: captions, folder: captionFolder, jobs: jobs)
        if let platform = target.platform {
            let stickers = photos.compactMap { photo in
                model.state(of: photo.id).files.map { MessengerPack.Input(name: photo.name, file: (captioned[photo.id] ?? $0).sticker) }
            }
            let options = MessengerPack.Options(platform: platform, title: title ?? url.deletingPathExtension().lastPathComponent,
                                                author: author, emoji: emoji, concurrency: jobs)
            do {
                let made = try await MessengerPack.make(stickers, options: options, output: url, warn: { printError($0) })
                for pack in made.packs {
                    await recordPack(URL(fileURLWithPath: pack.file), format: platform.rawValue, stickers: pack.stickers.map(\.name),
                                     identity: cache.identity)
                }
                try MessengerMakeReport(pack: made, invalid: report.invalid, animated: animated.report).print(json: json)
            } catch MessengerPack.Failure.tooFewStickers(let count, let minimum, _) where animated.report != nil {
                // Too few photos for a still pack beside an animated pack that was written: as for
                // too few clips, each photo is listed with why, and the animated pack stands (0).
                let reason = "\(count) still sticker(s): a \(platform.displayName) pack needs at least \(minimum), so no still pack was written"
                let left = photos.filter { model.state(of: $0.id).files != nil }.map { MakeReport.Invalid(file: $0.path, reason: reason) }
                for photo in left { printError("skipped \(photo.file): \(reason)") }
                try AnimatedOnlyReport(animated: animated.report!, invalid: report.invalid + left).print(json: json)
            } catch let error as MessengerPack.Failure {
                throw fail(error.reason, error.exitStatus)
            } catch is CancellationError {
                throw fail("interrupted: no pack written", ExitStatus.interrupted)
            }
            return
        }
        do {
            if captioned.isEmpty {
                try await model.exportPack(to: url, adding: animated.zipItems)
            } else {
                let items = photos.compactMap { photo in
                    (captioned[photo.id] ?? model.processedPhotos[photo.id]).map { StickerPack.Item(name: photo.name, files: $0) }
                } + animated.zipItems
                let invalid = photos.compactMap { photo in
                    model.invalidPhotos[photo.id].map { StickerPack.InvalidPhoto(name: photo.name, reason: $0.reason) }
                }
                try await MakeCaptions.writePack(items: items, invalid: invalid, to: url)
            }
        } catch is CancellationError {
            throw fail("interrupted: no pack written", ExitStatus.interrupted)
        } catch {
            throw fail("cannot write \(output): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
        await cache.trim()
        animated.reportZip(after: model.processedNames, output: url, title: title ?? url.deletingPathExtension().lastPathComponent)
        report.animated = animated.report
        await recordPack(url, format: PackTarget.zip.rawValue, stickers: model.processedNames + animated.zipInputs.map(\.name),
                         identity: cache.identity)

        for photo in photos {
            let state = model.state(of: photo.id)
            guard let done = state.files else { continue }
            report.stickers.append(.init(file: photo.path, name: photo.name, colors: done.colorScheme.colors.map(\.hex),
                                         cached: state.isFromCache))
        }
        if json {
            try report.print()
        } else {
            let skipped = report.invalid.isEmpty ? "" : ", \(report.invalid.count) photo(s) skipped"
            let cached = report.fromCache == 0 ? "" : " (\(report.fromCache) from the cache)"
            let clips = animated.zipInputs.isEmpty ? "" : " and \(animated.zipInputs.count) animated"
            print("Wrote \(output): \(report.stickers.count) sticker(s)\(clips)\(cached)\(skipped).")
        }
    }
}

extension MakeCommand {
    /// Each captioned photo's sticker with its caption drawn (see `MakeCaptions`).
    @MainActor func captionedStickers(_ photos: [SelectedPhoto], model: StickerViewModel, captions: [URL: Caption],
                                      folder: URL, jobs: Int) async throws -> [SelectedPhoto.ID: StickerFiles] {
        let work = photos.compactMap { photo -> (id: SelectedPhoto.ID, files: StickerFiles, caption: Caption)? in
            guard case .file(let file) = photo.source, let caption = captions[file],
                  let files = model.processedPhotos[photo.id] else { return nil }
            return (photo.id, files, caption)
        }
        do {
            return try await MakeCaptions.render(work, in: folder, jobs: jobs)
        } catch let error as CaptionError {
            throw fail("caption: \(error); no pack written", error.isUsageError ? ExitStatus.usage : ExitStatus.unavailable)
        } catch {
            throw fail("cannot caption the stickers: \(ErrorReason.of(error)); no pack written", ExitStatus.ioError)
        }
    }

    /// Records the pack written in the library (`stickers library packs` lists them). The pack is
    /// what was asked for: a library that cannot record it is reported, not a failure of `make`.
    @MainActor func recordPack(_ url: URL, format: String, stickers: [String], identity: String) async {
        do {
            let library = try StickerLibrary(folder: StickerPaths.dataDirectory(explicit: dataDir))
            try await PackRecords.recordFile(url, format: format, stickers: stickers, identity: identity, in: library)
        } catch {
            printError("the pack was written but not recorded in the library: \(error)")
        }
    }
}

/// `make --subject`.
enum MakeSubjects: String, ExpressibleByArgument, CaseIterable {
    case main, all
}

/// The `--json` report of `stickers make` (stable: scripts read it).
extension MakeCommand {
    /// Refuses, before any work, a pack named as a photo or a clip (`-o photo.jpg`: the pack and
    /// the `OUT-animated`, `OUT-1` … beside it would replace inputs or be taken for photos by the
    /// next run), and a pack that is one of the inputs itself.
    @MainActor func checkOutput(against files: [URL]) throws {
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        if StickerCommand.otherFormatExtensions.union(["png"]).contains(ext) {
            throw fail("-o \(output): a pack is a ZIP archive, not a .\(ext); name it .zip (or .wastickers for WhatsApp)", ExitStatus.usage)
        }
        var pack = stat()
        guard stat(output, &pack) == 0 else { return }
        for file in files {
            var input = stat()
            if stat(file.path, &input) == 0, input.st_dev == pack.st_dev, input.st_ino == pack.st_ino {
                throw fail("-o \(output) is one of the inputs: choose another file (inputs are never overwritten)", ExitStatus.usage)
            }
        }
    }
}

/// `make` that wrote only animated packs (no photos, or too few for a messenger's still pack).
struct AnimatedOnlyReport: Encodable {
    let animated: AnimatedPack.Report
    let invalid: [MakeReport.Invalid]

    func print(json: Bool) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Swift.print(String(decoding: try encoder.encode(self), as: UTF8.self))
        } else {
            for pack in animated.packs { Swift.print("Wrote \(pack.file): \(pack.stickers.count) animated sticker(s).") }
        }
    }
}

struct MakeReport: Encodable {
    struct Made: Encodable { let file: String; let name: String; let colors: [String]; let cached: Bool }
    struct Invalid: Encodable { let file: String; let reason: String }

    let output: String
    /// How many photos' results came from the processed-photo cache (no work done for them).
    var fromCache: Int
    var stickers: [Made] = []
    var invalid: [Invalid] = []
    /// The clips' animated stickers, in packs of their own.
    var animated: AnimatedPack.Report?

    func print() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        Swift.print(String(decoding: try encoder.encode(self), as: UTF8.self))
    }
}

private extension SelectedPhoto {
    var path: String {
        guard case .file(let url) = source else { return name }
        // As the person would type it: relative to the current folder when inside it.
        let cwd = FileManager.default.currentDirectoryPath + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(cwd) ? String(path.dropFirst(cwd.count)) : path
    }
}

