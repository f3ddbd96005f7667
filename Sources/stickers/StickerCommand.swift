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

    @Option(help: "Also write the subject's alpha: 8-bit grey PNG at the photo's full, oriented size, uncropped.")
    var mask: String?

    @Option(help: "Also write the sticker on a gradient of the photo's colours.")
    var gradient: String?

    @OptionGroup(title: "Style")
    var style: StyleOptions

    @Option(help: "The cut-out model (ONNX) to use instead of the cached U²-Net-p (also: STICKERS_MODEL).")
    var model: String?

    @Option(help: ArgumentHelp("A clip: where its piece starts, in seconds.", valueName: "S"))
    var start: Double?

    @Option(help: ArgumentHelp("A clip: how long its piece lasts, in seconds (default 3).", valueName: "D"))
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
        if subject != nil && point != nil { throw ValidationError("--subject and --point exclude each other") }
        if let start, !(start >= 0 && start.isFinite) { throw ValidationError("--start must be 0 or more seconds") }
        if let duration, !(duration > 0 && duration <= 60) { throw ValidationError("--duration must be more than 0 and at most 60 seconds") }
    }

    @MainActor func run() async throws {
        AllocatorTuning.keepFreedMemoryForReuse()
        if let output, ClipDetection.isClip(path: image) { return try await runClip(output: output) }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: image)) } catch {
            throw fail("cannot read \(image): \(ErrorReason.of(error))", ExitStatus.ioError)
        }
        // The model loads (~25 ms: parse, prepare weights) while the photo decodes; the decode's
        // error is reported first, as before.
        async let loading = Self.loadModel(explicitPath: model)
        let photo: Image
        do { photo = try await Self.decode(data) } catch {
            // A WebP photo on a machine without libwebp: a missing resource, not bad data.
            if case .codecUnavailable(let reason) = error { throw fail("\(image): \(reason)", ExitStatus.unavailable) }
            throw fail("\(image) is not a usable photo: \(error)", ExitStatus.dataError)
        }
        let predictor: U2NetSaliency
        switch await loading {
        case .success(let loaded): predictor = loaded
        case .failure(let error): throw fail("the cut-out model cannot be used: \(error)", ExitStatus.unavailable)
        }

        var sticker: Sticker
        do {
            sticker = try await SubjectExtractor(predictor: predictor, style: style.style).extractSubject(from: photo)
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
        if let chosen = try await choose(from: sticker, style: style.style) { sticker = chosen }

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

    /// The sticker `--subject` or `--point` asks for, re-cut from the one made (nil: keep it).
    @MainActor private func choose(from sticker: Sticker, style: StickerStyle) async throws -> Sticker? {
        let choice: SubjectChoice
        do {
            switch (subject, point) {
            case (.main?, _), (nil, nil): return nil
            case (.all?, _): choice = .all
            case (.rank(let n)?, _): choice = .ranks([n - 1])
            case (nil, let point?):
                guard let subjects = sticker.subjects else { return nil }
                choice = .ranks([try subjects.subject(atX: point.x, y: point.y)])
            }
            return try await sticker.recut(choosing: choice, style: style)
        } catch .pointOutsidePhoto(let x, let y, let width, let height) {
            throw fail("--point \(x),\(y) is outside the photo (\(width)×\(height) pixels)", ExitStatus.usage)
        } catch {
            throw fail("\(image): \(error)", ExitStatus.dataError)
        }
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
