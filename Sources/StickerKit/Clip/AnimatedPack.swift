import Foundation
import Raster

/// Packs of animated stickers for a messaging app, written all or nothing as still packs are
/// (`MessengerPack`'s archive writer and pack files). They are packs of their own: WhatsApp
/// cannot mix animated and still stickers in one pack, and a Telegram set is of one kind.
public enum AnimatedPack {
    public struct Input: Sendable {
        public var name: String
        public var sticker: FittedAnimation
        /// The first frame on its canvas (the pack's icon is drawn from it).
        public var firstFrame: Image
        /// Whether the sticker came from the cache (no work done).
        public var cached: Bool
        public init(name: String, sticker: FittedAnimation, firstFrame: Image, cached: Bool) {
            self.name = name
            self.sticker = sticker
            self.firstFrame = firstFrame
            self.cached = cached
        }
    }

    /// What was written: per pack, each sticker's bytes, frames, frame rate and quality.
    public struct Report: Sendable, Codable, Hashable {
        public struct Sticker: Sendable, Codable, Hashable {
            public var name: String
            public var file: String
            public var emoji: String
            public var width: Int
            public var height: Int
            public var bytes: Int
            public var frames: Int
            public var fps: Double
            public var quality: Int
            public var scale: Double
            public var cached: Bool
        }
        public struct Pack: Sendable, Codable, Hashable {
            public var file: String
            public var title: String
            public var stickers: [Sticker]
        }
        public var platform: String
        public var packs: [Pack]
    }

    /// The animated packs' file names: `OUT-animated.EXT` (more than one: `-animated-1`, `-animated-2`, …).
    public static func output(for output: URL) -> URL {
        let stem = output.deletingPathExtension().lastPathComponent
        let ext = output.pathExtension.isEmpty ? "zip" : output.pathExtension
        return output.deletingLastPathComponent().appending(path: "\(stem)-animated.\(ext)")
    }

    /// What a plain ZIP pack (`StickerPack`, beside the photos' stickers) at `output` holds of
    /// `inputs`, each under its entry's name in `files`: one pack, platform `zip`.
    public static func zipReport(_ inputs: [Input], files: [String], output: URL, title: String) -> Report {
        let stickers = zip(inputs, files).map { input, file in
            let sticker = input.sticker
            return Report.Sticker(name: input.name, file: file, emoji: StickerEmoji.suggested(forName: input.name),
                                  width: sticker.width, height: sticker.height, bytes: sticker.bytes, frames: sticker.frames,
                                  fps: sticker.framesPerSecond, quality: sticker.quality, scale: sticker.scale, cached: input.cached)
        }
        return Report(platform: "zip", packs: [.init(file: output.path, title: title, stickers: stickers)])
    }

    /// Writes the packs of `inputs` for `platform` (nil: a plain ZIP of the stickers).
    public static func write(_ inputs: [Input], platform: MessengerPlatform?, title: String, author: String,
                             emoji: String?, output: URL) throws(MessengerPack.Failure) -> Report {
        let limits = platform?.rules.stickersPerPack ?? 1...10_000
        guard inputs.count >= limits.lowerBound else {
            throw .tooFewStickers(count: inputs.count, minimum: limits.lowerBound, platform: platform ?? .telegram)
        }
        let ext = platform.map { AnimatedStickerRules.of($0).fileExtension } ?? "webp"
        let files = StickerPack.uniqueFileNames(inputs.map(\.name)).map { "\($0).\(ext)" }
        let sizes = MessengerPack.packSizes(count: inputs.count, limits: limits)
        let urls = MessengerPack.outputFiles(for: Self.output(for: output), packCount: sizes.count)
        var report = Report(platform: platform?.rawValue ?? "zip", packs: [])
        var archives: [(URL, [(String, Data)])] = []
        var start = 0
        for (index, size) in sizes.enumerated() {
            let range = start..<(start + size)
            start += size
            let packTitle = sizes.count > 1 ? "\(title) (\(index + 1)/\(sizes.count))" : title
            var entries: [(String, Data)] = []
            var stickers: [Report.Sticker] = []
            var listed: [MessengerPack.Report.Sticker] = []
            for i in range {
                let sticker = inputs[i].sticker
                let mark = emoji ?? StickerEmoji.suggested(forName: inputs[i].name)
                entries.append((files[i], sticker.data))
                stickers.append(.init(name: inputs[i].name, file: files[i], emoji: mark, width: sticker.width, height: sticker.height,
                                      bytes: sticker.bytes, frames: sticker.frames, fps: sticker.framesPerSecond,
                                      quality: sticker.quality, scale: sticker.scale, cached: inputs[i].cached))
                listed.append(.init(name: inputs[i].name, file: files[i], emoji: mark, width: sticker.width, height: sticker.height,
                                    bytes: sticker.bytes, encoding: ext, quality: sticker.quality, scale: sticker.scale,
                                    milliseconds: 0, cpuMilliseconds: 0))
            }
            if let platform {
                entries += try MessengerPack.packFiles(platform: platform, title: packTitle, author: author,
                                                       first: inputs[range.lowerBound].firstFrame, stickers: listed)
            }
            archives.append((urls[index], entries))
            report.packs.append(.init(file: urls[index].path, title: packTitle, stickers: stickers))
        }
        try MessengerPack.writeAll(archives)
        return report
    }
}
