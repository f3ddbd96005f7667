import Foundation
import Raster

/// A GIF's or an animated PNG's frames as the file's own structure lists them: each frame's delay,
/// read from its blocks (GIF) or chunks (APNG) without decoding a pixel.
///
/// Two things ffmpeg's rawvideo frames do not carry: a frame's own delay (a GIF pausing on one
/// frame for a second plays that way in the sticker too, not at the average rate), and whether
/// the file ends where its structure says (ffmpeg decodes a GIF cut short to its last whole image
/// without a word, and an APNG's with one only at error level and exit status 0).
public struct AnimatedImageTimeline: Sendable, Hashable {
    /// Each frame's display time in seconds, in order, exact as the file gives it (an APNG's
    /// 1/30 is not rounded: whole milliseconds would drift a frame off ffmpeg's clock in a second).
    public var frameSeconds: [Double]
    /// Seconds from the clip's start to the first frame's (a video's first frame may come later:
    /// `variableRate(of:)`; a GIF's or APNG's starts it).
    public var firstStart: Double

    public init(frameSeconds: [Double], firstStart: Double = 0) {
        self.frameSeconds = frameSeconds
        self.firstStart = firstStart
    }

    /// Seconds from the start to each frame's start, and to the last one's end.
    public var frameStarts: [Double] {
        var starts: [Double] = [firstStart]
        starts.reserveCapacity(frameSeconds.count + 1)
        for seconds in frameSeconds { starts.append(starts[starts.count - 1] + seconds) }
        return starts
    }

    /// Each frame's display time in whole milliseconds, rounded on the running clock (their sum
    /// stays on the file's).
    public var frameMilliseconds: [Int] {
        let starts = frameStarts.map { Int(($0 * 1000).rounded()) }
        return zip(starts, starts.dropFirst()).map { $1 - $0 }
    }

    /// The timeline of the GIF or APNG at `url`, nil for any other file (a video: its container
    /// carries its timing). Throws `.unreadable` when the file ends inside its structure.
    public static func read(contentsOf url: URL) throws(ClipError) -> AnimatedImageTimeline? {
        // A regular file only, as `ClipDetection` reads one: a FIFO would be read to its end here
        // (waited on, and its bytes lost to ffmpeg).
        var status = stat()
        guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        // Mapped, not read: only the blocks' headers are touched (a sub-block's length, a chunk's).
        guard let data = try? Data(contentsOf: url, options: .alwaysMapped) else { return nil }
        return try read(data)
    }

    /// The timeline of GIF or APNG bytes, nil for any other bytes.
    public static func read(_ data: Data) throws(ClipError) -> AnimatedImageTimeline? {
        switch ImageFormat.sniff(data.prefix(16)) {
        case .gif: return try gif(data)
        case .png:
            let bytes = ByteCursor(data)
            return ClipDetection.isAnimatedPNG(chunkHeader: { bytes.slice(at: $0, count: 8) }) ? try apng(data) : nil
        default: return nil
        }
    }

    /// A GIF delay of 0 or 1 hundredths plays as 10 in browsers and in ffmpeg's demuxer (its
    /// `min_delay` 2, `default_delay` 10): old GIFs meant "as fast as you can" by it.
    static func gifSeconds(hundredths: Int) -> Double { Double(hundredths < 2 ? 10 : hundredths) / 100 }

    /// An APNG delay as ffmpeg's demuxer plays it (and so cuts a piece by it): a numerator of 0 at
    /// its `default_fps` (15), a denominator of 0 as hundredths (APNG § 4.2), anything else as it is.
    static func apngSeconds(numerator: Int, denominator: Int) -> Double {
        numerator == 0 ? 1.0 / 15 : Double(numerator) / Double(denominator == 0 ? 100 : denominator)
    }

    /// Walks a GIF's blocks (GIF89a §§ 17-27): a Graphic Control Extension's delay belongs to the
    /// image after it. Bytes after the trailer, or a stray byte where a block should start once an
    /// image was read, end the GIF as browsers end it; running out of bytes inside a block is a
    /// file cut short.
    static func gif(_ data: Data) throws(ClipError) -> AnimatedImageTimeline {
        let bytes = ByteCursor(data)
        var frames: [Double] = []
        func cutShort() -> ClipError {
            .unreadable(frames.isEmpty ? "the GIF is cut short before its first image"
                                       : "the GIF is cut short inside its image \(frames.count + 1) (the file ends early)")
        }
        guard bytes.count >= 13 else { throw cutShort() }
        let screenFlags = bytes[10]
        var offset = 13 + (screenFlags & 0x80 != 0 ? 3 << (Int(screenFlags & 7) + 1) : 0)
        /// Skips a run of sub-blocks (a length byte, that many bytes, … a 0); false if the file ends first.
        func skipSubBlocks() -> Bool {
            while offset < bytes.count {
                let length = Int(bytes[offset])
                offset += 1 + length
                if length == 0 { return true }
            }
            return false
        }
        var delay: Int?
        while true {
            // Bytes that end where a block would start, after an image: a GIF without its
            // trailer, which ffmpeg, Pillow and browsers play whole.
            guard offset < bytes.count else {
                if offset == bytes.count, !frames.isEmpty { return AnimatedImageTimeline(frameSeconds: frames) }
                throw cutShort()
            }
            switch bytes[offset] {
            case 0x21:  // an extension: a label, then sub-blocks
                guard offset + 2 < bytes.count else { throw cutShort() }
                if bytes[offset + 1] == 0xF9, bytes[offset + 2] == 4, offset + 6 < bytes.count {
                    delay = Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8
                }
                offset += 2
                guard skipSubBlocks() else { throw cutShort() }
            case 0x2C:  // an image: its descriptor, a local colour table, the LZW code size, sub-blocks
                guard offset + 10 < bytes.count else { throw cutShort() }
                let flags = bytes[offset + 9]
                offset += 10 + (flags & 0x80 != 0 ? 3 << (Int(flags & 7) + 1) : 0) + 1
                guard skipSubBlocks() else { throw cutShort() }
                frames.append(gifSeconds(hundredths: delay ?? 0))
                delay = nil
            case 0x3B:  // the trailer
                guard !frames.isEmpty else { throw .unreadable("the GIF has no image") }
                return AnimatedImageTimeline(frameSeconds: frames)
            default:
                guard !frames.isEmpty else { throw .unreadable("the GIF's blocks are corrupt before its first image") }
                return AnimatedImageTimeline(frameSeconds: frames)
            }
        }
    }

    /// Walks an APNG's chunks to `IEND`: each `fcTL` starts a frame (APNG § 4.2). A chunk running
    /// past the file's end is a file cut short; bytes that end between chunks, after a frame, are
    /// an APNG without its `IEND`, which ffmpeg and Pillow play whole.
    static func apng(_ data: Data) throws(ClipError) -> AnimatedImageTimeline {
        let bytes = ByteCursor(data)
        var frames: [Double] = []
        var offset = 8
        while true {
            if offset == bytes.count, !frames.isEmpty { return AnimatedImageTimeline(frameSeconds: frames) }
            guard offset + 12 <= bytes.count else {
                throw .unreadable("the animated PNG is cut short after \(frames.count) frames (the file ends inside a chunk)")
            }
            let length = bytes.bigEndian32(at: offset)
            let type = bytes.slice(at: offset + 4, count: 4)
            guard length <= bytes.count - offset - 12 else {
                throw .unreadable("the animated PNG is cut short inside a chunk after \(frames.count) frames (the file ends early)")
            }
            if type.elementsEqual("fcTL".utf8), length >= 26 {
                let numerator = Int(bytes[offset + 8 + 20]) << 8 | Int(bytes[offset + 8 + 21])
                let denominator = Int(bytes[offset + 8 + 22]) << 8 | Int(bytes[offset + 8 + 23])
                frames.append(apngSeconds(numerator: numerator, denominator: denominator))
            }
            if type.elementsEqual("IEND".utf8) {
                guard !frames.isEmpty else { throw .unreadable("the animated PNG has no frame") }
                return AnimatedImageTimeline(frameSeconds: frames)
            }
            offset += 12 + length
        }
    }
}

/// Bounds-checked reads from `Data` at offsets from its start (a slice's indices need not start at 0).
private struct ByteCursor {
    let data: Data
    var count: Int { data.count }

    init(_ data: Data) { self.data = data }

    subscript(offset: Int) -> UInt8 { data[data.startIndex + offset] }

    func slice(at offset: Int, count: Int) -> Data {
        let start = data.startIndex + offset
        guard offset >= 0, start < data.endIndex else { return Data() }
        return data[start..<min(start + count, data.endIndex)]
    }

    func bigEndian32(at offset: Int) -> Int {
        (0..<4).reduce(0) { $0 << 8 | Int(self[offset + $1]) }
    }
}
