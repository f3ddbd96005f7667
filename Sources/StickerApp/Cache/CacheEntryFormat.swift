import Foundation
import Raster
import StickerKit

/// How one processed photo is kept on disk: a folder named by its key holding `entry.json` (this
/// manifest) and the PNGs it names. The ONE place that knows the format: a new field is one edit
/// here; a change old readers cannot follow bumps `formatVersion`, and entries of another version
/// are treated as absent (the cache is re-creatable).
nonisolated struct CacheEntryManifest: Codable, Sendable, Equatable {
    static let formatVersion = 1
    static let fileName = "entry.json"

    enum Outcome: String, Codable, Sendable {
        /// The sticker was made: `files` names its PNGs.
        case processed
        /// The photo cannot become a sticker (unreadable, no clear subject): remembered so a rerun
        /// does not try again.
        case unusable
        /// A clip's animated sticker: `files` names it (`sticker`) and its first frame on its
        /// canvas (`first`, a PNG), `animation` gives its figures. Added within format 1: only a
        /// clip's key (`-clip-` in its name) leads to such an entry, and a reader that predates
        /// them never builds one, so it never reads one either (its trim and clear handle any
        /// entry folder alike).
        case animated
    }

    var format = Self.formatVersion
    /// The photo's content digest and the processor's `outputIdentity` (the key's two halves).
    var digest: String
    var identity: String
    var outcome: Outcome
    /// For `unusable`: which kind, the decoder's typed error for an unreadable photo, and the
    /// reason in words (for a person reading the entry).
    var unusableKind: String?
    var codecError: ImageCodecError?
    var reason: String?
    var colors: [PaletteColor]?
    /// File names inside the entry's folder, by kind (`sticker`, `gradient`, `mask`, `cutout`,
    /// `subjects`: the photo's subjects, their union cut-out beside them; absent in older entries).
    var files: [String: String]?
    /// For `animated`: the sticker's figures (what a pack's report says without decoding it).
    var animation: AnimationFigures?
    var created: Date

    struct AnimationFigures: Codable, Sendable, Hashable {
        var width: Int
        var height: Int
        var frames: Int
        var fps: Double
        var quality: Int
        var scale: Double
    }

    /// The outcome this entry records, its file names resolved inside `folder`.
    func result(in folder: URL) -> Result<StickerFiles, PhotoProcessingError>? {
        switch outcome {
        case .processed:
            guard let files, let sticker = files["sticker"], let gradient = files["gradient"], let colors else { return nil }
            return .success(StickerFiles(sticker: folder.appending(path: sticker), gradient: folder.appending(path: gradient),
                                         mask: files["mask"].map { folder.appending(path: $0) },
                                         cutOut: files["cutout"].map { folder.appending(path: $0) },
                                         subjects: files["subjects"].map { folder.appending(path: $0) },
                                         colorScheme: PhotoColorScheme(colors: colors)))
        case .animated:
            return nil
        case .unusable:
            switch unusableKind {
            case "noClearSubject": return .failure(.noClearSubject)
            case "unreadable": return codecError.map { .failure(.unreadable($0)) }
            default: return nil
            }
        }
    }

    static func processed(digest: String, identity: String, files: StickerFiles) -> Self {
        var names = ["sticker": files.sticker.lastPathComponent, "gradient": files.gradient.lastPathComponent]
        names["mask"] = files.mask?.lastPathComponent
        names["cutout"] = files.cutOut?.lastPathComponent
        names["subjects"] = files.subjects?.lastPathComponent
        return Self(digest: digest, identity: identity, outcome: .processed, colors: files.colorScheme.colors,
                    files: names, created: Date())
    }

    /// `nil` for errors that say nothing about the photo (the engine failed): never cached.
    static func unusable(digest: String, identity: String, error: PhotoProcessingError) -> Self? {
        switch error {
        case .noClearSubject:
            Self(digest: digest, identity: identity, outcome: .unusable, unusableKind: "noClearSubject", created: Date())
        case .unreadable(let codecError):
            Self(digest: digest, identity: identity, outcome: .unusable, unusableKind: "unreadable", codecError: codecError,
                 reason: error.description, created: Date())
        case .engineFailure:
            nil
        }
    }

    /// The animated sticker this entry records, its files resolved inside `folder`; nil for any
    /// other outcome.
    func animatedFiles(in folder: URL) -> (sticker: URL, firstFrame: URL, figures: AnimationFigures)? {
        guard outcome == .animated, let files, let sticker = files["sticker"], let first = files["first"],
              let animation else { return nil }
        return (folder.appending(path: sticker), folder.appending(path: first), animation)
    }

    /// A clip with no clear subject (the clip's own verdict, after a whole pass of the network over
    /// its frames): remembered so a rerun refuses it without the work.
    static func clipWithoutSubject(digest: String, identity: String) -> Self {
        Self(digest: digest, identity: identity, outcome: .unusable, unusableKind: "noClearSubject",
             reason: "no clear subject to cut out of the clip", created: Date())
    }

    /// Whether this entry remembers a clip with no clear subject.
    var isClipWithoutSubject: Bool { outcome == .unusable && unusableKind == "noClearSubject" }

    static func animated(digest: String, identity: String, sticker: String, firstFrame: String,
                         figures: AnimationFigures) -> Self {
        Self(digest: digest, identity: identity, outcome: .animated, files: ["sticker": sticker, "first": firstFrame],
             animation: figures, created: Date())
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self)
    }

    /// The manifest in `data`, or `nil` when it is damaged or of another format version.
    static func decode(_ data: Data) -> Self? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let manifest = try? decoder.decode(Self.self, from: data), manifest.format == formatVersion else { return nil }
        return manifest
    }
}
