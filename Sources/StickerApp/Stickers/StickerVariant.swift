import ErrorReasons
import Foundation
import Raster
import StickerKit
import StickerLibrary

/// What a person made of one photo beyond the engine's first cut: its style and the subjects it
/// keeps (and, as features arrive, its edits, caption and animation) — one value, with one stable
/// identifier that names its files.
///
/// The identifier is a digest of the variant's canonical encoding (JSON, sorted keys) in which a
/// field at its default (`nil`) is left out: adding a field (say `caption: CaptionSpec?`, and its
/// line in `encode(to:)`) leaves every existing identifier, and so every folder already written,
/// as it was. The library never stores these folder names (it copies the files into its
/// content-addressed store and keeps the style and the subjects chosen as fields), so a library
/// made before this type still restores.
nonisolated public struct StickerVariant: Sendable, Hashable, Encodable {
    /// The sticker's look; nil: as the engine first drew it.
    public var style: StickerStyle?
    /// The subjects kept (0-based ranks, ascending); nil: the engine's own choice.
    public var subjects: [Int]?

    public init(style: StickerStyle? = nil, subjects: [Int]? = nil) {
        self.style = style
        self.subjects = subjects
    }

    /// The variant a photo's files are.
    public init(of files: StickerFiles) {
        self.init(style: files.style, subjects: files.chosenSubjects)
    }

    private enum CodingKeys: String, CodingKey {
        case style, subjects
    }

    /// The canonical encoding: only the fields that differ from the default, each in a form
    /// that does not change with the engine's types (`LibraryStyle` spells a style out).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(style.map(LibraryStyle.init), forKey: .style)
        try container.encodeIfPresent(subjects, forKey: .subjects)
    }

    /// 16 hex digits of the SHA-256 of the canonical encoding.
    public var id: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values (numbers, strings, arrays) cannot fail.
        let data = (try? encoder.encode(self)) ?? Data()
        return String(ContentDigest(data).hex.prefix(16))
    }

    /// The one place variant files live: `variant-ID` inside the folder of the photo's kept
    /// originals (the cache entry that holds its subjects, else the folder of its cut-out).
    public func folder(for files: StickerFiles) -> URL? {
        guard let base = (files.subjects ?? files.cutOut)?.deletingLastPathComponent() else { return nil }
        return base.appending(path: "variant-\(id)", directoryHint: .isDirectory)
    }
}

/// Why a variant of a photo could not be made, in words for the person who asked.
nonisolated public enum VariantError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The photo is not processed (or was removed, or made again, while the variant was drawn).
    case notProcessed
    /// The photo kept no cut-out (or no subjects) to draw another variant from: process it again.
    case nothingKept(String)
    /// The subjects do not allow that choice.
    case choice(SubjectChoiceError)
    /// The variant's files could not be written (the cause in words).
    case notWritten(String)

    public var description: String {
        switch self {
        case .notProcessed: "it is not processed"
        case .nothingKept(let what): "it kept no \(what) to draw from: process it again"
        case .choice(let error): error.description
        case .notWritten(let reason): "its files could not be written: \(reason)"
        }
    }
}

extension StickerViewModel {
    /// Redraws a processed photo's sticker in `style` from its kept cut-out (no network), keeping
    /// the subjects chosen, and keeps the new files, so the pack has them too.
    public func restyle(_ id: SelectedPhoto.ID, with style: StickerStyle) async throws(VariantError) {
        guard let files = state(of: id).files else { throw .notProcessed }
        var variant = StickerVariant(of: files)
        variant.style = style
        let restyled = try await Self.restyled(files, as: variant)
        guard replaceFiles(of: id, with: restyled) else { throw .notProcessed }
    }

    /// Cuts a processed photo's sticker out again keeping the subjects `choice` names, from its
    /// kept subjects (no network), in its style, and keeps the new files (the pack has them too).
    public func chooseSubjects(_ id: SelectedPhoto.ID, _ choice: SubjectChoice) async throws(VariantError) {
        guard let files = state(of: id).files else { throw .notProcessed }
        let recut = try await Self.recut(files, choosing: choice)
        guard replaceFiles(of: id, with: recut) else { throw .notProcessed }
    }

    /// A processed photo's subjects, as kept with its files, with the choice its sticker holds;
    /// nil when the photo is not processed or kept no subjects.
    public func subjects(of id: SelectedPhoto.ID) async -> PhotoSubjects? {
        guard let files = state(of: id).files, let url = files.subjects, var subjects = await Self.loadSubjects(url) else { return nil }
        if let chosen = files.chosenSubjects { subjects.chosen = chosen }
        return subjects
    }

    @concurrent private static func loadSubjects(_ url: URL) async -> PhotoSubjects? {
        guard let json = try? Data(contentsOf: url),
              let png = try? Data(contentsOf: url.deletingLastPathComponent().appending(path: PhotoSubjects.cutOutFileName)) else { return nil }
        return try? PhotoSubjects(json: json, png: png)
    }

    /// The sticker and gradient redrawn from the current cut-out, through StickerKit's one PNG
    /// path, into the variant's folder.
    @concurrent private static func restyled(_ files: StickerFiles, as variant: StickerVariant) async throws(VariantError) -> StickerFiles {
        let style = variant.style ?? StickerStyle()
        guard let cutOutURL = files.cutOut, let folder = variant.folder(for: files) else { throw .nothingKept("cut-out") }
        let cutOut: Image
        do { cutOut = try ImageDecoder.decode(try Data(contentsOf: cutOutURL)) } catch { throw .nothingKept("readable cut-out") }
        let image = await style.apply(to: cutOut, bands: ProcessInfo.processInfo.activeProcessorCount)
        do {
            let pngs = try await StickerPNGs.render(sticker: image, colorScheme: files.colorScheme)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var restyled = try pngs.write(into: folder, colorScheme: files.colorScheme)
            restyled.mask = files.mask
            restyled.cutOut = files.cutOut
            restyled.subjects = files.subjects
            restyled.chosenSubjects = files.chosenSubjects
            restyled.style = style
            return restyled
        } catch {
            throw .notWritten(ErrorReason.of(error))
        }
    }

    /// The sticker cut out again from the kept subjects, in the current style, into the
    /// variant's folder; its new cut-out is what a later restyle draws from.
    @concurrent private static func recut(_ files: StickerFiles, choosing choice: SubjectChoice) async throws(VariantError) -> StickerFiles {
        guard let url = files.subjects, let subjects = await loadSubjects(url) else { throw .nothingKept("subjects") }
        let ranks: [Int]
        var cut: SubjectExtractor.CutOut
        do throws(SubjectChoiceError) {
            ranks = try subjects.ranks(of: choice)
            guard let chosen = try subjects.cutOut(choosing: choice) else { throw SubjectChoiceError.nothingChosen }
            cut = chosen
        } catch {
            throw .choice(error)
        }
        cut.subjects = nil  // kept once, beside the original files
        let style = files.style ?? StickerStyle()
        let variant = StickerVariant(style: style, subjects: ranks)
        guard let folder = variant.folder(for: files) else { throw .nothingKept("subjects") }
        let image = await style.apply(to: cut.image, bands: ProcessInfo.processInfo.activeProcessorCount)
        let photo = ProcessedPhoto(sticker: Sticker(image: image, mask: cut.mask, cutOut: cut, style: style), colorScheme: files.colorScheme)
        do {
            let pngs = try await StickerPNGs.render(photo, kinds: [.sticker, .gradient, .mask, .cutOut])
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var recut = try pngs.write(into: folder, colorScheme: files.colorScheme)
            recut.subjects = url
            recut.chosenSubjects = ranks
            recut.style = style
            return recut
        } catch {
            throw .notWritten(ErrorReason.of(error))
        }
    }
}
