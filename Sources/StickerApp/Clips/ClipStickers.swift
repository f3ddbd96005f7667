import AtomicFiles
import ErrorReasons
import Foundation
import Raster
import StickerKit

/// Clips made into animated stickers for the app layer (the web app's Stickers tab) and `make`:
/// through the cache first (`AnimatedStickerCache`, keyed by the clip's digest and every option,
/// `AnimatedStickerKey`), else the clip's frames made by `ClipStickerMaker` and fitted to the
/// target's rules by `AnimatedStickerFitter`, off the caller's actor, cancellable (cancelling
/// kills ffmpeg).
nonisolated public struct ClipStickers: Sendable {
    public var maker: ClipStickerMaker
    /// nil: no cache (`make --no-cache`).
    public var cache: AnimatedStickerCache?
    /// Where the fitter's WebM trials and an in-memory upload's clip file are written.
    public var scratch: URL

    public init(maker: ClipStickerMaker, cache: AnimatedStickerCache?,
                scratch: URL = FileManager.default.temporaryDirectory) {
        self.maker = maker
        self.cache = cache
        self.scratch = scratch
    }

    /// A plain animated sticker (what the web app shows, and a ZIP pack holds): animated WebP,
    /// at most 512 px, the clip's first 3 s, any size.
    public static let plainRules = AnimatedStickerRules(
        platform: .telegram, fileExtension: "webp", canvas: CanvasFit(), maximumBytes: Int.max, maximumSeconds: 3,
        maximumFramesPerSecond: 30)

    /// The rules of `platform`'s animated stickers; nil: the plain ones.
    public static func rules(for platform: MessengerPlatform?) -> AnimatedStickerRules {
        platform.map(AnimatedStickerRules.of) ?? plainRules
    }

    /// One clip's sticker, and where its cache entry is.
    public struct Made: Sendable {
        public var sticker: FittedAnimation
        public var firstFrame: Image
        /// Whether it came from the cache (no work done).
        public var cached: Bool
        /// The entry's files (when it could be stored: always, unless the cache cannot be written).
        public var entry: AnimatedStickerCache.Entry?
    }

    /// `clip`'s sticker under `rules` in `style`: from the cache, else made and stored.
    /// - Parameter storeRequired: throw `StorageError` when the entry cannot be stored (the web
    ///   app serves the entry's files); else a failed store only costs a later run its work.
    @concurrent
    public func sticker(clip: URL, rules: AnimatedStickerRules, style: StickerStyle, storeRequired: Bool = false) async throws -> Made {
        // What a killed process left here (its fit trials, its half-stored entries) goes now:
        // named by their process, so never a running one's.
        ProcessOwnedName.removeLeftovers(in: scratch, prefix: "stickers-fit-")
        await cache?.removeLeftovers()
        var maker = self.maker
        maker.style = style
        maker.canvas = rules.canvas
        let digest = try ContentDigest(Data(contentsOf: clip, options: .mappedIfSafe)).hex
        let key = self.key(clipDigest: digest, rules: rules, maker: maker)
        switch await cache?.cached(key) {
        case .sticker(let sticker, let first, let entry)?:
            return Made(sticker: sticker, firstFrame: first, cached: true, entry: entry)
        case .noClearSubject?:
            throw ClipError.cutOut(.noClearSubject)
        case nil:
            break
        }
        let made: (frames: [Image], framesPerSecond: Double, milliseconds: [Int])
        do {
            made = try await maker.frames(clip: clip, piece: ClipPiece(start: 0, duration: rules.maximumSeconds))
        } catch ClipError.cutOut(.noClearSubject) {
            // The clip's own verdict, as a photo's is: a rerun refuses it without the work.
            await cache?.rememberNoClearSubject(key)
            throw ClipError.cutOut(.noClearSubject)
        }
        let fitted = try await AnimatedStickerFitter.fit(made.frames, framesPerSecond: made.framesPerSecond,
                                                         milliseconds: made.milliseconds, rules: rules, scratch: scratch)
        try Task.checkCancellation()
        guard let cache else { return Made(sticker: fitted, firstFrame: made.frames[0], cached: false, entry: nil) }
        do {
            let entry = try await cache.store(fitted, first: made.frames[0], fileExtension: rules.fileExtension, key: key)
            return Made(sticker: fitted, firstFrame: made.frames[0], cached: false, entry: entry)
        } catch {
            if storeRequired { throw error }
            return Made(sticker: fitted, firstFrame: made.frames[0], cached: false, entry: nil)
        }
    }

    /// The cache key of a clip (its content digest, hex) made by `maker` (its style and canvas
    /// set) under `rules`: the engine and model (as photos are keyed), the predictor's type, and
    /// every option (`AnimatedStickerKey`).
    func key(clipDigest: String, rules: AnimatedStickerRules, maker: ClipStickerMaker) -> ProcessedPhotoDiskCache.Key {
        let engine = StickerEngine.engineVersion(modelPath: nil) + ";predictor=" + String(reflecting: type(of: maker.predictor))
        return AnimatedStickerKey(engine: engine, rules: rules, style: maker.style, maker: maker).diskKey(clipDigest: clipDigest)
    }
}
