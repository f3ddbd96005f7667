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
    /// The point (`[x, y]`) a closer look found the subject under, when a click chose it; then
    /// `subjects` is nil.
    public var point: [Int]?
    /// The brush strokes applied to the cut-out; nil: none.
    public var edits: BrushStrokes?
    /// The caption drawn on the sticker; nil: none.
    public var caption: Caption?

    public init(style: StickerStyle? = nil, subjects: [Int]? = nil, point: [Int]? = nil, edits: BrushStrokes? = nil,
                caption: Caption? = nil) {
        self.style = style
        self.subjects = subjects
        self.point = point
        self.edits = edits
        self.caption = caption
    }

    /// The variant a photo's files are.
    public init(of files: StickerFiles) {
        self.init(style: files.style, subjects: files.chosenSubjects, point: files.chosenPoint, edits: files.edits,
                  caption: files.caption)
    }

    private enum CodingKeys: String, CodingKey {
        case style, subjects, point, edits, caption
    }

    /// The canonical encoding: only the fields that differ from the default, each in a form
    /// that does not change with the engine's types (`LibraryStyle` spells a style out,
    /// `LibraryCaption` a caption; `BrushStrokes` is itself the stored form).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(style.map(LibraryStyle.init), forKey: .style)
        try container.encodeIfPresent(subjects, forKey: .subjects)
        try container.encodeIfPresent(point, forKey: .point)
        try container.encodeIfPresent(edits, forKey: .edits)
        try container.encodeIfPresent(caption.map(LibraryCaption.init), forKey: .caption)
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
    /// The brush strokes cannot be applied (beyond a limit, or painted at another shape).
    case edits(BrushStrokesError)
    /// The strokes erase the whole subject.
    case nothingLeft
    /// The caption cannot be drawn (too long, characters no font has, no font installed).
    case caption(CaptionError)
    /// Nothing was found at the point, even looking closer; or the point is outside the photo.
    case nothingAt(String)
    /// The cut-out engine cannot run (for a closer look).
    case engine(String)
    /// Not now: the work it needs is already running (a closer look).
    case busy(String)
    /// The variant's files could not be written (the cause in words).
    case notWritten(String)

    public var description: String {
        switch self {
        case .notProcessed: "it is not processed"
        case .nothingKept(let what): "it kept no \(what) to draw from: process it again"
        case .choice(let error): error.description
        case .edits(let error): "the brush strokes cannot be used: \(error)"
        case .nothingLeft: "the strokes erase the whole subject: nothing would be left of the sticker"
        case .caption(let error): error.description
        case .nothingAt(let reason): reason
        case .engine(let reason): "the cut-out engine cannot run: \(reason)"
        case .busy(let reason): reason
        case .notWritten(let reason): "its files could not be written: \(reason)"
        }
    }
}

extension StickerViewModel {
    /// Where a variant's cut-out comes from.
    nonisolated enum VariantBase: Sendable {
        /// The photo's current cut-out (and mask) as kept with its files.
        case kept
        /// These subjects, cut out again from the kept ones.
        case subjects(SubjectChoice)
        /// A cut-out a closer look found under a point.
        case found(SubjectExtractor.CutOut)
    }

    /// Redraws a processed photo's sticker in `style` from its kept cut-out (no network), keeping
    /// the subjects chosen, its edits and caption, and keeps the new files, so the pack has them too.
    public func restyle(_ id: SelectedPhoto.ID, with style: StickerStyle) async throws(VariantError) {
        guard let files = state(of: id).files else { throw .notProcessed }
        if files.isAnimated { return try await restyleClip(id, with: style) }
        try await redraw(id) { $0.style = style }
    }

    /// Cuts a processed photo's sticker out again keeping the subjects `choice` names, from its
    /// kept subjects (no network), in its style, and keeps the new files (the pack has them too).
    public func chooseSubjects(_ id: SelectedPhoto.ID, _ choice: SubjectChoice) async throws(VariantError) {
        try await redraw(id, base: .subjects(choice))
    }

    /// Applies `strokes` (all of them, replacing those applied before; nil or none: the cut-out
    /// unedited) to a processed photo's kept cut-out, no network, and keeps the new files.
    public func edit(_ id: SelectedPhoto.ID, strokes: BrushStrokes?) async throws(VariantError) {
        try await redraw(id) { $0.edits = strokes?.isEmpty == false ? strokes : nil }
    }

    /// Draws `caption` on a processed photo's sticker (nil: none), no network, and keeps the new files.
    public func setCaption(_ id: SelectedPhoto.ID, _ caption: Caption?) async throws(VariantError) {
        try await redraw(id) { $0.caption = caption }
    }

    /// Cuts out the subject under pixel (`x`, `y`) of the photo (its oriented, processed size), as
    /// `stickers sticker --point X,Y` does: by `finder` (the engine's `subject(at:in:firstLook:)`,
    /// off the main actor), which re-cuts a large kept subject without the network and looks
    /// closer — the network again — at a small one or where the first look found nothing. Without
    /// a finder, only a kept subject can be chosen (re-cut from the kept subjects).
    public func chooseSubject(_ id: SelectedPhoto.ID, atX x: Int, y: Int, finder: (any SubjectFinding)?) async throws(VariantError) {
        guard let files = state(of: id).files else { throw .notProcessed }
        let subjects = await subjects(of: id)
        guard let finder else {
            if let subjects, let rank = try? subjects.subject(atX: x, y: y) { return try await chooseSubjects(id, .ranks([rank])) }
            throw .nothingAt("no subject was found at (\(x), \(y)), and this engine cannot look closer")
        }
        // One closer look at a time: each is up to three network runs, which take the cores.
        guard !isLookingCloser else { throw .busy("another closer look is running: try again when it has finished") }
        isLookingCloser = true
        defer { isLookingCloser = false }
        let photo = try await photoData(id)
        let found = try await Self.lookCloser(at: x, y, files: files, subjects: subjects, photo: photo, finder: finder)
        try await redraw(id, base: .found(found)) { $0.point = [x, y] }
    }

    /// A selected photo's bytes, for the pixels an edit or a closer look needs (read again, not
    /// kept: a photo that cannot be read now is not marked invalid, its sticker stays).
    private func photoData(_ id: SelectedPhoto.ID) async throws(VariantError) -> Data {
        guard let photo = selection.first(where: { $0.id == id }) else { throw .notProcessed }
        do {
            return try await loader.data(for: photo)
        } catch {
            guard case .unreadableFile(let reason) = error else { throw .nothingKept("readable photo") }
            throw .nothingKept("readable photo (\(reason))")
        }
    }

    /// A processed photo's subjects, as kept with its files, with the choice its sticker holds;
    /// nil when the photo is not processed or kept no subjects. After a click chose the cut-out,
    /// the one under the click (if any) is chosen.
    public func subjects(of id: SelectedPhoto.ID) async -> PhotoSubjects? {
        guard let files = state(of: id).files, let url = files.subjects, var subjects = await Self.loadSubjects(url) else { return nil }
        if let chosen = files.chosenSubjects { subjects.chosen = chosen }
        if let point = files.chosenPoint {
            // A click chose the cut-out: the kept subject under it, if any, is the one shown chosen.
            subjects.chosen = (try? subjects.subject(atX: point[0], y: point[1])).map { [$0] } ?? []
        }
        return subjects
    }

    @concurrent private static func loadSubjects(_ url: URL) async -> PhotoSubjects? {
        guard let json = try? Data(contentsOf: url),
              let png = try? Data(contentsOf: url.deletingLastPathComponent().appending(path: PhotoSubjects.cutOutFileName)) else { return nil }
        return try? PhotoSubjects(json: json, png: png)
    }

    /// The one way a variant is made: the photo's variant with `change` applied, drawn from `base`.
    /// The photo's bytes are read only when strokes need its pixels (a restore: erasing alone
    /// draws from the kept cut-out).
    private func redraw(_ id: SelectedPhoto.ID, base: VariantBase = .kept,
                        change: (inout StickerVariant) -> Void = { _ in }) async throws(VariantError) {
        guard let files = state(of: id).files else { throw .notProcessed }
        var variant = StickerVariant(of: files)
        variant.style = files.style ?? StickerStyle()
        switch base {
        case .kept: break
        case .subjects, .found: variant.subjects = nil; variant.point = nil
        }
        change(&variant)
        let photo = variant.edits?.restores == true ? try await photoData(id) : nil
        let drawn = try await Self.draw(files, variant: variant, base: base, photo: photo)
        guard replaceFiles(of: id, with: drawn) else { throw .notProcessed }
    }

    /// The subject under (`x`, `y`) by `finder`'s closer look, given the first look (the kept
    /// cut-out and subjects) and the photo's bytes, decoded to the kept mask's size.
    @concurrent private static func lookCloser(at x: Int, _ y: Int, files: StickerFiles, subjects: PhotoSubjects?, photo data: Data,
                                               finder: any SubjectFinding) async throws(VariantError) -> SubjectExtractor.CutOut {
        let first = try keptCutOut(files, needsMask: true)
        guard x >= 0, y >= 0, x < first.mask.width, y < first.mask.height else {
            throw .nothingAt(SubjectChoiceError.pointOutsidePhoto(x: x, y: y, width: first.mask.width, height: first.mask.height).description)
        }
        let photo = try decodePhoto(data, matching: first.mask)
        var look = first
        look.subjects = subjects
        let sticker: Sticker
        do {
            sticker = try await finder.subject(at: .point(x: x, y: y), in: photo,
                                               firstLook: Sticker(image: first.image, mask: first.mask, cutOut: look, style: files.style ?? StickerStyle()))
        } catch .modelFailed(let reason) {
            throw .engine(reason)
        } catch .outsidePhoto(let error) {
            throw .nothingAt(error.description)
        } catch {
            throw .nothingAt("nothing stands out at (\(x), \(y)), even looking closer")
        }
        guard var cut = sticker.cutOut else { throw .nothingAt("nothing stands out at (\(x), \(y)), even looking closer") }
        cut.subjects = nil  // the photo's subjects stay those kept beside the original files
        return cut
    }

    /// The photo's current cut-out from its kept files: the unstyled cut-out, placed where its
    /// kept mask's box is (the box the engine cropped it to). Without `needsMask`, a missing mask
    /// leaves a cut-out placed at the origin, enough for a restyle.
    nonisolated static func keptCutOut(_ files: StickerFiles, needsMask: Bool) throws(VariantError) -> SubjectExtractor.CutOut {
        guard let cutOutURL = files.cutOut else { throw .nothingKept("cut-out") }
        let image: Image
        do { image = try ImageDecoder.decode(try Data(contentsOf: cutOutURL)) } catch { throw .nothingKept("readable cut-out") }
        guard needsMask else { return SubjectExtractor.CutOut(mask: Mask(width: 0, height: 0), image: image, originX: 0, originY: 0) }
        guard let maskURL = files.mask, let mask = try? ImageDecoder.decodeMask(try Data(contentsOf: maskURL)) else {
            throw .nothingKept("mask")
        }
        let box = mask.bounds
        return SubjectExtractor.CutOut(mask: mask, image: image, originX: box?.x ?? 0, originY: box?.y ?? 0)
    }

    /// The photo's pixels lined up with a `mask` the processor made: decoded at the scale whose
    /// long side is the mask's (as the processor decodes), resized when it still differs.
    nonisolated static func decodePhoto(_ data: Data, matching mask: Mask) throws(VariantError) -> Image {
        let image: Image
        do { image = try ImageDecoder.decode(data, maxDimension: max(mask.width, mask.height)) } catch {
            throw .nothingKept("readable photo")
        }
        guard image.width != mask.width || image.height != mask.height else { return image }
        let ratio = Double(image.width) / Double(image.height), expected = Double(mask.width) / Double(mask.height)
        guard abs(ratio / expected - 1) <= 0.01 else { throw .nothingKept("photo of its cut-out's shape") }
        return image.resized(width: mask.width, height: mask.height)
    }

    /// The one path a variant is drawn by: the cut-out from `base` (the kept one, subjects cut out
    /// again from the kept ones, or a closer look's), the variant's brush strokes applied to it
    /// (with the photo's pixels, `photo`), its style, its caption; rendered through StickerKit's
    /// one PNG path into the variant's folder. A new cut-out (a re-cut, a closer look) writes its
    /// own mask and cut-out, unedited (what a later variant draws from); the others keep the photo's.
    @concurrent private static func draw(_ files: StickerFiles, variant: StickerVariant, base: VariantBase,
                                         photo data: Data?) async throws(VariantError) -> StickerFiles {
        let bands = ProcessInfo.processInfo.activeProcessorCount
        let style = variant.style ?? StickerStyle()
        var variant = variant
        let cut: SubjectExtractor.CutOut
        let isNewCutOut: Bool
        switch base {
        case .subjects(let choice):
            guard let url = files.subjects, let subjects = await loadSubjects(url) else { throw .nothingKept("subjects") }
            var chosen: SubjectExtractor.CutOut
            do throws(SubjectChoiceError) {
                variant.subjects = try subjects.ranks(of: choice)
                guard let made = try subjects.cutOut(choosing: choice) else { throw SubjectChoiceError.nothingChosen }
                chosen = made
            } catch {
                throw .choice(error)
            }
            chosen.subjects = nil  // kept once, beside the original files
            cut = chosen
            isNewCutOut = true
        case .found(let found):
            cut = found
            isNewCutOut = true
        case .kept:
            cut = try keptCutOut(files, needsMask: variant.edits != nil)
            isNewCutOut = false
        }
        var unstyled = cut.image
        if let strokes = variant.edits {
            let edits: CutOutEdits
            do { edits = try strokes.edits(width: cut.mask.width, height: cut.mask.height) } catch { throw .edits(error) }
            var photo: Image?
            if edits.needsPhoto {
                guard let data else { throw .nothingKept("readable photo") }
                photo = try decodePhoto(data, matching: cut.mask)
            }
            let edited: SubjectExtractor.CutOut?
            do { edited = try edits.apply(to: cut, photo: photo) } catch { throw .edits(.wrongSize(error)) }
            guard let edited else { throw .nothingLeft }
            unstyled = edited.image
        }
        var image = await style.apply(to: unstyled, bands: bands)
        if let caption = variant.caption {
            do { image = try caption.apply(to: image) } catch { throw .caption(error) }
        }
        guard let folder = variant.folder(for: files) else { throw .nothingKept("cut-out") }
        do {
            let pngs = isNewCutOut
                ? try await StickerPNGs.render(ProcessedPhoto(sticker: Sticker(image: image, mask: cut.mask, cutOut: cut, style: style),
                                                              colorScheme: files.colorScheme),
                                               kinds: [.sticker, .gradient, .mask, .cutOut])
                : try await StickerPNGs.render(sticker: image, colorScheme: files.colorScheme)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var drawn = try pngs.write(into: folder, colorScheme: files.colorScheme)
            drawn.mask = drawn.mask ?? files.mask
            drawn.cutOut = drawn.cutOut ?? files.cutOut
            drawn.subjects = files.subjects
            drawn.chosenSubjects = variant.subjects
            drawn.chosenPoint = variant.point
            drawn.style = style
            drawn.edits = variant.edits
            drawn.caption = variant.caption
            return drawn
        } catch {
            throw .notWritten(ErrorReason.of(error))
        }
    }
}
