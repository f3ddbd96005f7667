import AtomicFiles
import Foundation
import Raster
import StickerKit

/// The cache of animated stickers, shared by `stickers make` and the web app: one entry per clip
/// and every option that shapes its sticker (the target's rules, the style, the tracking), as
/// three files in one folder — `KEY.bin` (the sticker), `KEY.png` (its first frame on its canvas:
/// a pack's icon, a still preview) and `KEY.json` (its figures). Each is written atomically and
/// the figures last, so an entry without them is no entry: a process killed mid-store leaves
/// nothing that is read, and its temporaries (named by its process id) go at the next store.
nonisolated public struct AnimatedStickerCache: Sendable {
    public var folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// `DIR/clips` of a processed-photo cache folder: where `make` and `serve` keep them.
    public static func inside(cacheDirectory: URL) -> AnimatedStickerCache {
        AnimatedStickerCache(folder: cacheDirectory.appending(path: "clips", directoryHint: .isDirectory))
    }

    /// One entry's files.
    public struct Entry: Sendable, Hashable {
        public var sticker: URL
        public var firstFrame: URL
        public var figures: URL
    }

    public func entry(_ key: String) -> Entry {
        Entry(sticker: folder.appending(path: "\(key).bin"), firstFrame: folder.appending(path: "\(key).png"),
              figures: folder.appending(path: "\(key).json"))
    }

    /// The clip's bytes (`clipDigest`, hex) and every option that shapes its sticker.
    public static func key(clipDigest: String, rules: AnimatedStickerRules, style: StickerStyle, maker: ClipStickerMaker) -> String {
        let options = "\(rules)|\(style)|\(maker.tracking)|\(maker.workingSide)|\(maker.maximumFramesPerSecond)|v1"
        return clipDigest + "-" + ContentDigest(Data(options.utf8)).hex
    }

    /// A cached sticker and its first frame, or nil.
    public func cached(_ key: String) -> (sticker: FittedAnimation, first: Image)? {
        let entry = entry(key)
        guard let meta = try? Data(contentsOf: entry.figures),
              let figures = try? JSONDecoder().decode(Figures.self, from: meta),
              let data = try? Data(contentsOf: entry.sticker),
              let png = try? Data(contentsOf: entry.firstFrame),
              let first = try? ImageDecoder.decode(png) else { return nil }
        return (FittedAnimation(data: data, width: figures.width, height: figures.height, frames: figures.frames,
                                framesPerSecond: figures.fps, quality: figures.quality, scale: figures.scale), first)
    }

    /// Stores atomically (the figures last). Throws the cause when the folder cannot be written.
    public func store(_ sticker: FittedAnimation, first: Image, key: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let figures = Figures(width: sticker.width, height: sticker.height, frames: sticker.frames,
                              fps: sticker.framesPerSecond, quality: sticker.quality, scale: sticker.scale)
        let png = try ImageEncoder.png(first)
        let meta = try JSONEncoder().encode(figures)
        let entry = entry(key)
        try AtomicFileWriter.write(sticker.data, to: entry.sticker)
        try AtomicFileWriter.write(png, to: entry.firstFrame)
        try AtomicFileWriter.write(meta, to: entry.figures)
    }

    struct Figures: Codable {
        var width: Int, height: Int, frames: Int, fps: Double, quality: Int, scale: Double
    }
}
