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
        if files.isAnimated { return try await restyleClip(id, with: style) }
        let drawn = try await Self.draw(files, style: style, choosing: nil)
        guard replaceFiles(of: id, with: drawn) else { throw .notProcessed }
    }

    /// Cuts a processed photo's sticker out again keeping the subjects `choice` names, from its
    /// kept subjects (no network), in its style, and keeps the new files (the pack has them too).
    public func chooseSubjects(_ id: SelectedPhoto.ID, _ choice: SubjectChoice) async throws(VariantError) {
        guard let files = state(of: id).files else { throw .notProcessed }
        let drawn = try await Self.draw(files, style: files.style ?? StickerStyle(), choosing: choice)
        guard replaceFiles(of: id, with: drawn) else { throw .notProcessed }
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

    /// The one path a variant is drawn by: the photo's sticker in `style`, its subjects cut out
    /// again from the kept ones when `choice` is given (else its current cut-out redrawn), rendered
    /// through StickerKit's one PNG path into the variant's folder. A re-cut writes its own mask
    /// and cut-out (what a later restyle draws from); a restyle keeps the photo's.
    @concurrent private static func draw(_ files: StickerFiles, style: StickerStyle,
                                         choosing choice: SubjectChoice?) async throws(VariantError) -> StickerFiles {
        let bands = ProcessInfo.processInfo.activeProcessorCount
        let variant: StickerVariant
        let render: () async throws -> StickerPNGs
        if let choice {
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
            variant = StickerVariant(style: style, subjects: ranks)
            let image = await style.apply(to: cut.image, bands: bands)
            let photo = ProcessedPhoto(sticker: Sticker(image: image, mask: cut.mask, cutOut: cut, style: style),
                                       colorScheme: files.colorScheme)
            render = { try await StickerPNGs.render(photo, kinds: [.sticker, .gradient, .mask, .cutOut]) }
        } else {
            guard let cutOutURL = files.cutOut else { throw .nothingKept("cut-out") }
            let cutOut: Image
            do { cutOut = try ImageDecoder.decode(try Data(contentsOf: cutOutURL)) } catch { throw .nothingKept("readable cut-out") }
            variant = StickerVariant(style: style, subjects: files.chosenSubjects)
            let image = await style.apply(to: cutOut, bands: bands)
            render = { try await StickerPNGs.render(sticker: image, colorScheme: files.colorScheme) }
        }
        guard let folder = variant.folder(for: files) else { throw .nothingKept("cut-out") }
        do {
            let pngs = try await render()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var drawn = try pngs.write(into: folder, colorScheme: files.colorScheme)
            drawn.mask = drawn.mask ?? files.mask
            drawn.cutOut = drawn.cutOut ?? files.cutOut
            drawn.subjects = files.subjects
            drawn.chosenSubjects = variant.subjects
            drawn.style = style
            return drawn
        } catch {
            throw .notWritten(ErrorReason.of(error))
        }
    }
}
