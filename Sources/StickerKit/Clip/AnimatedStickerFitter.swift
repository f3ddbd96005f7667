import AtomicFiles
import BoundedConcurrency
import Foundation
import Raster

/// A messaging app's rules for animated stickers, and the format each takes.
public struct AnimatedStickerRules: Sendable, Hashable {
    public var platform: MessengerPlatform
    /// Telegram: WebM (VP9 with alpha); WhatsApp: animated WebP; Signal: APNG.
    public var fileExtension: String
    public var canvas: CanvasFit
    public var maximumBytes: Int
    public var maximumSeconds: Double
    public var maximumFramesPerSecond: Double

    public init(platform: MessengerPlatform, fileExtension: String, canvas: CanvasFit, maximumBytes: Int,
                maximumSeconds: Double, maximumFramesPerSecond: Double) {
        self.platform = platform
        self.fileExtension = fileExtension
        self.canvas = canvas
        self.maximumBytes = maximumBytes
        self.maximumSeconds = maximumSeconds
        self.maximumFramesPerSecond = maximumFramesPerSecond
    }

    public static func of(_ platform: MessengerPlatform) -> AnimatedStickerRules {
        switch platform {
        // core.telegram.org/stickers, video stickers: WebM VP9, one side 512 and the other ≤ 512,
        // ≤ 3 s, ≤ 30 fps, ≤ 256 KB, no audio.
        case .telegram: AnimatedStickerRules(platform: platform, fileExtension: "webm", canvas: CanvasFit(exactSide: true),
                                             maximumBytes: 256 * 1024, maximumSeconds: 3, maximumFramesPerSecond: 30)
        // WhatsApp (github.com/WhatsApp/stickers): animated WebP 512×512, ≤ 500 KB, each frame ≥ 8 ms, ≤ 10 s, looping.
        case .whatsapp: AnimatedStickerRules(platform: platform, fileExtension: "webp", canvas: CanvasFit(square: true),
                                             maximumBytes: 500 * 1024, maximumSeconds: 10, maximumFramesPerSecond: 30)
        // Signal: APNG ≤ 512×512, ≤ 300 KB, ≤ 3 s.
        case .signal: AnimatedStickerRules(platform: platform, fileExtension: "png", canvas: CanvasFit(),
                                           maximumBytes: 300 * 1024, maximumSeconds: 3, maximumFramesPerSecond: 30)
        }
    }
}

/// An animated sticker encoded under a byte limit.
public struct FittedAnimation: Sendable, Hashable {
    public var data: Data
    public var width: Int
    public var height: Int
    public var frames: Int
    public var framesPerSecond: Double
    /// The encoder's quality dial: WebP quality 0…100; WebM the VP9 constant-quality value turned
    /// to 0…100 (100 − crf·100/63); APNG the bits kept per channel (8: exact).
    public var quality: Int
    /// The sticker's size on its canvas relative to the full fit (1: not shrunk).
    public var scale: Double
    public var bytes: Int { data.count }

    public init(data: Data, width: Int, height: Int, frames: Int, framesPerSecond: Double, quality: Int, scale: Double) {
        self.data = data
        self.width = width
        self.height = height
        self.frames = frames
        self.framesPerSecond = framesPerSecond
        self.quality = quality
        self.scale = scale
    }
}

/// Size targeting for animated stickers, as for stills: quality first, then frame rate, then scale.
/// Works on the sticker's frames at full size on their canvas (held once, compressed by nothing:
/// at most the platform's seconds × 15 frames of 512×512).
public enum AnimatedStickerFitter {
    /// The qualities tried, best first, per format.
    static let webpQualities: [Float] = [80, 65, 50, 35]
    static let webmCRFs = [30, 38, 46, 54]
    static let apngBits = [8, 6, 5, 4]
    static let frameSteps = [1, 2, 3]
    static let scales: [Double] = [1, 0.8, 0.6]

    /// - Parameters:
    ///   - frames: the sticker's frames on the platform's canvas, `framesPerSecond` apart on average.
    ///   - milliseconds: how long each frame shows (a GIF's own delays); nil: even at the rate.
    public static func fit(_ frames: [Image], framesPerSecond: Double, milliseconds: [Int]? = nil,
                           rules: AnimatedStickerRules, scratch: URL) async throws -> FittedAnimation {
        guard let first = frames.first else { throw ClipError.noFrames }
        let durations = milliseconds.flatMap { $0.count == frames.count ? $0 : nil }
            ?? FrameDurations.even(count: frames.count, framesPerSecond: framesPerSecond)
        var smallest = Int.max
        for scale in scales {
            let scaled = scale == 1 ? frames : frames.map { shrunk($0, scale: scale) }
            for step in frameSteps where step == 1 || scaled.count / step >= 2 {
                let kept = stride(from: 0, to: scaled.count, by: step).map { scaled[$0] }
                let fps = framesPerSecond / Double(step)
                let keptDurations = FrameDurations.merged(durations, step: step)
                for level in 0..<4 {
                    try Task.checkCancellation()
                    let (data, quality) = try await encode(kept, milliseconds: keptDurations, fps: fps, level: level,
                                                           extension: rules.fileExtension, scratch: scratch)
                    smallest = min(smallest, data.count)
                    if data.count <= rules.maximumBytes {
                        return FittedAnimation(data: data, width: first.width, height: first.height, frames: kept.count,
                                               framesPerSecond: (fps * 1000).rounded() / 1000, quality: quality, scale: scale)
                    }
                }
            }
        }
        throw ClipError.encoding("the smallest encoding is \(smallest) bytes, over \(rules.platform.displayName)'s \(rules.maximumBytes / 1024) KB")
    }

    /// The frame with its content shrunk about the centre, the canvas kept.
    static func shrunk(_ frame: Image, scale: Double) -> Image {
        let w = max(1, Int(Double(frame.width) * scale)), h = max(1, Int(Double(frame.height) * scale))
        let small = frame.resized(width: w, height: h, filter: .area)
        var canvas = Image(width: frame.width, height: frame.height)
        let x0 = (frame.width - w) / 2, y0 = (frame.height - h) / 2
        for y in 0..<h {
            let from = y * w * 4, to = ((y0 + y) * frame.width + x0) * 4
            canvas.pixels.replaceSubrange(to..<(to + w * 4), with: small.pixels[from..<(from + w * 4)])
        }
        return canvas
    }

    static func encode(_ frames: [Image], milliseconds: [Int], fps: Double, level: Int, extension ext: String,
                       scratch: URL) async throws -> (Data, Int) {
        let width = frames[0].width, height = frames[0].height
        switch ext {
        case "webp":
            let quality = webpQualities[level]
            let chunks = try await concurrentEncode(frames) { frame in
                try AnimatedWebPWriter.imageChunks(of: WebP.encode(frame, .lossy(quality: quality, method: 4)))
            }
            var writer = AnimatedWebPWriter(width: width, height: height)
            for (chunk, ms) in zip(chunks, milliseconds) { writer.add(encodedFrame: chunk, milliseconds: max(8, ms)) }
            return (writer.data(), Int(quality))
        case "png":
            let bits = apngBits[level]
            let pngs = try await concurrentEncode(frames) { frame in try ImageEncoder.png(posterised(frame, bits: bits)) }
            var writer = AnimatedPNGWriter(width: width, height: height)
            for (png, ms) in zip(pngs, milliseconds) { try writer.add(png: png, milliseconds: max(8, ms)) }
            return (writer.data(), bits)
        default:
            let crf = webmCRFs[level]
            // Named by this process (ffmpeg is told the container), so what a killed process left
            // is removed by the next fit, never a running one's.
            ProcessOwnedName.removeLeftovers(in: scratch, prefix: "stickers-fit-")
            let file = scratch.appending(path: ProcessOwnedName.make("stickers-fit-"))
            defer { try? FileManager.default.removeItem(at: file) }
            // A constant rate: each frame repeated over the ticks it covers (a GIF's shortest frame keeps one).
            let rate = FrameDurations.constantRate(for: milliseconds, average: fps, maximum: 30)
            let encoder = try WebMEncoder(output: file, width: width - width % 2, height: height - height % 2,
                                          framesPerSecond: rate, crf: crf)
            for (frame, repeats) in zip(frames, FrameDurations.repeats(milliseconds, framesPerSecond: rate)) where repeats > 0 {
                let even = frame.width % 2 == 0 && frame.height % 2 == 0 ? frame
                    : frame.resized(width: width - width % 2, height: height - height % 2, filter: .area)
                for _ in 0..<repeats { try await encoder.add(even) }
            }
            try await encoder.finish()
            return (try Data(contentsOf: file), Int((100 - Double(crf) * 100 / 63).rounded()))
        }
    }

    /// Each channel kept to `bits` bits (fewer distinct values: deflate packs them tighter).
    static func posterised(_ frame: Image, bits: Int) -> Image {
        guard bits < 8 else { return frame }
        let shift = UInt8(8 - bits)
        var out = frame
        for i in out.pixels.indices {
            let v = out.pixels[i] >> shift
            out.pixels[i] = (v << shift) | (v >> (UInt8(bits) - shift > 0 ? UInt8(bits) - shift : 0))
        }
        return out
    }

    static func concurrentEncode(_ frames: [Image], _ encode: @escaping @Sendable (Image) throws -> Data) async throws -> [Data] {
        try await concurrentMap(frames, limit: ProcessInfo.processInfo.activeProcessorCount) { try encode($0) }
    }
}
