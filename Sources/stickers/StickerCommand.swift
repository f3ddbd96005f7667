import AtomicFiles
import ArgumentParser
import ErrorReasons
import Foundation
import Raster
import StickerKit

/// `stickers sticker IMAGE -o OUT.png`: one photo in, one sticker out.
struct StickerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sticker",
        abstract: "Cut the main subject out of a photo as a sticker (PNG with a white outline)."
    )

    @Argument(help: "The photo (JPEG, PNG or WebP), or a clip (a video ffmpeg decodes, or an animated GIF).")
    var image: String

    @Option(name: .shortAndLong, help: "Where to write the sticker PNG (needed unless --list-subjects).")
    var output: String?

    @Option(help: ArgumentHelp("Also write the subject's alpha: 8-bit grey PNG at the photo's full, oriented size, uncropped.",
                               discussion: "For a clip, a folder: DIR/NNNN.png for each source frame the sticker uses (NNNN its 0-based index), at the clip's size; masks an earlier run wrote there and this one does not use go."))
    var mask: String?

    @Option(help: "Also write the sticker on a gradient of the photo's colours.")
    var gradient: String?

    @OptionGroup(title: "Style")
    var style: StyleOptions

    @OptionGroup(title: "Caption")
    var captionOptions: CaptionOptions

    @OptionGroup(title: "Edit")
    var edit: EditOptions

    @Option(help: "The cut-out model (ONNX) to use instead of the cached U²-Net-p (also: STICKERS_MODEL).")
    var model: String?

    // `.unconditional`: `--start -1` is the value -1 (refused by `validate` with the rule), not a
    // missing value followed by an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp("A clip: where its piece starts, in seconds.", valueName: "S"))
    var start: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("A clip: how long its piece lasts, in seconds (default 3).", valueName: "D"))
    var duration: Double?

    @Flag(help: "List the photo's separate subjects, most salient first: bounding box, a point inside, share.")
    var listSubjects = false

    @Flag(help: "With --list-subjects: print JSON.")
    var json = false

    @Option(help: ArgumentHelp("Which subjects to cut out: N (1-based, as --list-subjects numbers them), all, or main.",
                               valueName: "N|all|main"))
    var subject: SubjectArgument?

    @Option(help: ArgumentHelp("Cut out the subject under this pixel of the (orientation-corrected) photo.",
                               valueName: "X,Y"))
    var point: PointArgument?

    func validate() throws {
        if output == nil && !listSubjects { throw ValidationError("Missing expected argument '--output <output>'") }
        if json && !listSubjects { throw ValidationError("--json goes with --list-subjects") }
        if [subject != nil, point != nil, edit.box != nil].filter({ $0 }).count > 1 {
            throw ValidationError("--subject, --point and --box exclude each other")
        }
        if let start, !(start >= 0 && start.isFinite) { throw ValidationError("--start must be 0 or more seconds") }
        if let duration, !(duration > 0 && duration <= 60) { throw ValidationError("--duration must be more than 0 and at most 60 seconds") }
    }

    @MainActor func run() async throws {
        AllocatorTuning.keepFreedMemoryForReuse()
        // A folder is refused as the photo path refuses it (74), whatever its name (`x.mp4/`).
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: image, isDirectory: &isFolder), isFolder.boolValue {
            throw fail("cannot read \(image): it is a folder", ExitStatus.ioError)
        }
        let isClip = ClipDetection.isClip(path: image)
        try checkOutputs(photo: !isClip)
        if isClip {
            // Without -o, only --list-subjects can have been asked for.
            guard let output else { throw fail("--list-subjects takes a photo, not a clip", ExitStatus.usage) }
            return try await runClip(output: output)
        }
        let data: Data
        do { data = try InputBytes.read(image) } catch {
            throw fail("cannot read \(image): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
        // The model loads (~25 ms: parse, prepare weights) while the photo decodes; the decode's
        // error is reported first, as before.
        async let loading = Self.loadModel(explicitPath: model)
        let photo: Image
        do { photo = try await Self.decode(data) } catch {
            // A WebP photo on a machine without libwebp: a missing resource, not bad data.
            if case .codecUnavailable(let reason) = error { throw fail("\(image): \(reason)", ExitStatus.unavailable) }
            throw fail("\(image) is not a usable photo: \(error.reason)", ExitStatus.dataError)
        }
        let predictor: U2NetSaliency
        switch await loading {
        case .success(let loaded): predictor = loaded
        case .failure(let error): throw fail("the cut-out model cannot be used: \(error)", ExitStatus.unavailable)
        }

        let edits = try edit.edits(width: photo.width, height: photo.height)
        let extractor = SubjectExtractor(predictor: predictor, style: style.style)
        var sticker: Sticker
        do {
            sticker = try await extractor.extractSubject(from: photo)
        } catch .noClearSubject {
            throw fail("\(image): no clear subject to cut out (nothing stands out from the background)", ExitStatus.dataError)
        } catch .modelFailed(let reason) {
            // The model cannot run: a resource problem, not the photo's.
            throw fail("the cut-out model cannot run: \(reason)", ExitStatus.unavailable)
        } catch {
            throw fail("\(image): \(error)", ExitStatus.dataError)
        }

        if listSubjects { try printSubjects(sticker.subjects) }
        guard let output else { return }
        if let chosen = try await choose(from: sticker, photo: photo, extractor: extractor) { sticker = chosen }
        sticker = try await edited(sticker, edits, photo: photo)
        if let caption = captionOptions.single { sticker.image = try await captioned(sticker.image, caption) }

        // The one "processed photo → its PNGs" path (StickerKit's StickerPNGs), each image
        // encoded in bands over the cores; the gradient runs through the subject's own colours.
        var kinds: Set<StickerPNGs.Kind> = [.sticker]
        if mask != nil { kinds.insert(.mask) }
        if gradient != nil { kinds.insert(.gradient) }
        let scheme = gradient == nil ? PhotoColorScheme(colors: []) : await Self.colorScheme(of: sticker, photo: photo)
        let pngs: StickerPNGs
        do {
            pngs = try await StickerPNGs.render(ProcessedPhoto(sticker: sticker, colorScheme: scheme),
                                                kinds: kinds, encoding: .banded)
        } catch {
            throw fail("cannot encode the sticker: \(error)", ExitStatus.ioError)
        }
        try write(pngs.sticker, to: output)
        if let mask, let png = pngs.mask { try write(png, to: mask) }
        if let gradient, let png = pngs.gradient { try write(png, to: gradient) }
    }

    /// The sticker `--subject`, `--point` or `--box` asks for, re-cut from the one made (nil: keep
    /// it). A point or box gets a closer look (the network again, on a crop around it) unless it
    /// names a subject the first look found that fills most of the photo.
    @MainActor private func choose(from sticker: Sticker, photo: Image, extractor: SubjectExtractor) async throws -> Sticker? {
        let target: SubjectTarget
        switch (subject, point, edit.box) {
        case (nil, let point?, _): target = .point(x: point.x, y: point.y)
        case (nil, nil, let box?): target = .box(x0: box.x0, y0: box.y0, x1: box.x1, y1: box.y1)
        case (.main?, _, _), (nil, nil, nil): return nil
        case (.all?, _, _): return try await recut(sticker, choosing: .all)
        case (.rank(let n)?, _, _): return try await recut(sticker, choosing: .ranks([n - 1]))
        }
        do {
            return try await extractor.subject(at: target, in: photo, firstLook: sticker)
        } catch .outsidePhoto(let error) {
            throw fail("\(error)", ExitStatus.usage)
        } catch .modelFailed(let reason) {
            throw fail("the cut-out model cannot run: \(reason)", ExitStatus.unavailable)
        } catch {
            throw fail("\(image): \(error)", ExitStatus.dataError)
        }
    }

    @MainActor private func recut(_ sticker: Sticker, choosing choice: SubjectChoice) async throws -> Sticker? {
        do {
            return try await sticker.recut(choosing: choice, style: style.style)
        } catch {
            throw fail("\(image): \(error)", ExitStatus.dataError)
        }
    }

    /// `--erase` / `--restore` applied to the cut-out (no network), styled again.
    @MainActor private func edited(_ sticker: Sticker, _ edits: CutOutEdits, photo: Image) async throws -> Sticker {
        guard !edits.isEmpty else { return sticker }
        do {
            guard let edited = try await sticker.edited(edits, photo: photo) else {
                throw fail("\(image): nothing is left of the subject after --erase", ExitStatus.dataError)
            }
            return edited
        } catch let error as CutOutEditError {
            throw fail("\(error)", ExitStatus.usage)
        }
    }

    /// The sticker with `--caption` drawn on it; an uncovered character or a font FreeType cannot
    /// open is a usage error (64), no caption font installed a missing resource (69).
    @MainActor private func captioned(_ image: Image, _ caption: Caption) async throws -> Image {
        switch await Self.caption(image, caption) {
        case .success(let captioned): return captioned
        case .failure(let error):
            throw fail("--caption: \(error)", error.isUsageError ? ExitStatus.usage : ExitStatus.unavailable)
        }
    }

    @concurrent private static func caption(_ image: Image, _ caption: Caption) async -> Result<Image, CaptionError> {
        do { return .success(try caption.apply(to: image)) } catch { return .failure(error) }
    }

    /// `--list-subjects`: one line per subject, or `{"subjects":[{"bbox":[x0,y0,x1,y1],"point":[x,y],"share":s}]}`
    /// (x1, y1 exclusive; the oriented photo's pixels; rank order).
    @MainActor private func printSubjects(_ subjects: PhotoSubjects?) throws {
        let list = subjects?.subjects ?? []
        if json {
            struct Listing: Encodable {
                struct Entry: Encodable { let bbox: [Int]; let point: [Int]; let share: Double }
                let subjects: [Entry]
            }
            let listing = Listing(subjects: list.map {
                .init(bbox: [$0.bounds.x, $0.bounds.y, $0.bounds.x + $0.bounds.width, $0.bounds.y + $0.bounds.height],
                      point: [$0.pointX, $0.pointY], share: ($0.share * 1000).rounded() / 1000)
            })
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(listing), as: UTF8.self))
            return
        }
        let main = Set(subjects?.main ?? [])
        for (rank, s) in list.enumerated() {
            let b = s.bounds
            print("\(rank + 1)  box \(b.x),\(b.y)–\(b.x + b.width),\(b.y + b.height)  point \(s.pointX),\(s.pointY)  "
                  + "share \(Int((s.share * 100).rounded()))%\(main.contains(rank) ? "  (main)" : "")")
        }
    }

    @concurrent private static func decode(_ data: Data) async throws(ImageCodecError) -> Image {
        try ImageDecoder.decode(data)
    }

    @concurrent static func loadModel(explicitPath: String?) async -> Result<U2NetSaliency, CutOutModelError> {
        do {
            return .success(try await CutOutModel.load(explicitPath: explicitPath,
                                                       threads: min(2, ProcessInfo.processInfo.activeProcessorCount),
                                                       log: { line in FileHandle.standardError.write(Data("stickers: \(line)\n".utf8)) }))
        } catch {
            return .failure(error)
        }
    }

    @concurrent private static func colorScheme(of sticker: Sticker, photo: Image) async -> PhotoColorScheme {
        ColorExtractor().extractColors(from: photo.downsampled(toFit: 256), count: 5, mask: sticker.mask)
    }

    /// Refuses, before any work, the output paths that would lose a file or go nowhere: one that
    /// is the input itself (64: the photo or clip would be replaced by its sticker), one in a
    /// folder that does not exist or that is a folder (74, said at once rather than after a clip's
    /// whole work), and,
    /// for a photo, a PNG named as another format (64: `-o out.webp` used to get PNG bytes).
    @MainActor private func checkOutputs(photo: Bool) throws {
        var input = stat()
        let inputExists = stat(image, &input) == 0
        let files = [("-o", output), ("--mask", photo ? mask : nil), ("--gradient", photo ? gradient : nil)]
        for case let (option, path?) in files {
            var status = stat()
            if inputExists, stat(path, &status) == 0, status.st_dev == input.st_dev, status.st_ino == input.st_ino {
                throw fail("\(option) \(path) is the input itself: choose another file (the input is never overwritten)", ExitStatus.usage)
            }
            let url = URL(fileURLWithPath: path)
            let ext = url.pathExtension.lowercased()
            if photo, ext != "png", Self.otherFormatExtensions.contains(ext) {
                throw fail("\(option) \(path): a photo's \(option == "-o" ? "sticker" : option.dropFirst(2)) is written as PNG; name it .png", ExitStatus.usage)
            }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
                throw fail("cannot write \(path): it is a folder; name the file to write", ExitStatus.ioError)
            }
            let folder = url.deletingLastPathComponent().path
            if !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue {
                throw fail("cannot write \(path): no such folder \(folder)", ExitStatus.ioError)
            }
        }
    }

    /// Extensions of formats a photo's PNG must not be named by.
    static let otherFormatExtensions: Set<String> = Set(ImageFormat.allCases.flatMap(\.fileExtensions))
        .union(ClipDetection.videoExtensions).union(["avif", "heic", "heif", "tif", "tiff", "bmp"])

    /// Writes atomically (a temporary file renamed into place): never a partial PNG.
    @MainActor private func write(_ bytes: Data, to path: String) throws {
        do { try AtomicFileWriter.write(bytes, to: URL(fileURLWithPath: path)) } catch {
            throw fail("cannot write \(path): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
    }
}

/// `--subject N|all|main`.
enum SubjectArgument: ExpressibleByArgument, Equatable {
    case rank(Int), all, main

    init?(argument: String) {
        switch argument {
        case "all": self = .all
        case "main": self = .main
        default:
            guard let n = Int(argument), n >= 1 else { return nil }
            self = .rank(n)
        }
    }
}

/// `--point X,Y`: whole pixels.
struct PointArgument: ExpressibleByArgument, Equatable {
    let x: Int, y: Int

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let y = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { return nil }
        self.x = x; self.y = y
    }
}
