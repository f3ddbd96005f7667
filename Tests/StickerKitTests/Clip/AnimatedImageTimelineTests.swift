import Foundation
@testable import StickerKit
import Testing

@Suite("Clips: a GIF's and an APNG's own frame timing and ends")
struct AnimatedImageTimelineTests {
    /// A GIF of 1×1 images, each after a Graphic Control Extension holding its delay (hundredths).
    static func gif(delays: [Int], trailer: Bool = true) -> Data {
        var bytes: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        for delay in delays {
            bytes += [0x21, 0xF9, 4, 0, UInt8(delay & 0xFF), UInt8(delay >> 8), 0, 0]
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        }
        if trailer { bytes.append(0x3B) }
        return Data(bytes)
    }

    /// An APNG's chunks (CRCs left zero: only the structure is read), one `fcTL` per frame.
    static func apng(delays: [(UInt16, UInt16)], end: Bool = true) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let n = UInt32(body.count)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + body + [0, 0, 0, 0]
        }
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])
        bytes += chunk("acTL", [0, 0, 0, UInt8(delays.count), 0, 0, 0, 0])
        for (k, (numerator, denominator)) in delays.enumerated() {
            let control: [UInt8] = [0, 0, 0, UInt8(2 * k), 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
                                    UInt8(numerator >> 8), UInt8(numerator & 0xFF), UInt8(denominator >> 8), UInt8(denominator & 0xFF), 0, 0]
            bytes += chunk("fcTL", control)
            bytes += chunk(k == 0 ? "IDAT" : "fdAT", [1, 2, 3, 4, 5])
        }
        if end { bytes += chunk("IEND", []) }
        return Data(bytes)
    }

    @Test("A GIF's frames keep their own delays; 0 or 1 hundredths play as a tenth of a second, as browsers play them")
    func gifDelays() throws {
        let timeline = try #require(try AnimatedImageTimeline.read(Self.gif(delays: [10, 50, 0, 1, 7])))
        #expect(timeline.frameMilliseconds == [100, 500, 100, 100, 70])
        #expect(timeline.frameStarts.map { Int(($0 * 1000).rounded()) } == [0, 100, 600, 700, 800, 870])
    }

    @Test("A GIF cut short inside a block is unreadable, named by the image it ends in; one ending between blocks plays what it holds")
    func gifCutShort() throws {
        let whole = Self.gif(delays: [10, 10, 10])
        // Header and colour table 19 bytes, then per frame a control extension (8) and an image (15).
        for length in 13..<whole.count {
            let ends: [Int] = (1...3).flatMap { (k: Int) -> [Int] in [19 + 23 * k, 19 + 23 * k + 8] }
            let between: Int? = ends.firstIndex(of: length).map { $0 / 2 + 1 }
            if let frames = between {
                // No trailer, but every block whole: what ffmpeg, Pillow and browsers play.
                #expect(try AnimatedImageTimeline.read(whole.prefix(length))?.frameSeconds.count == frames, "cut at \(length)")
            } else {
                #expect(throws: ClipError.self, "cut at \(length) of \(whole.count)") {
                    _ = try AnimatedImageTimeline.read(whole.prefix(length))
                }
            }
        }
        #expect(throws: ClipError.unreadable("the GIF is cut short inside its image 3 (the file ends early)")) {
            _ = try AnimatedImageTimeline.read(Self.gif(delays: [10, 10, 10], trailer: false).dropLast(2))
        }
        // Bytes after the trailer are ignored, as browsers ignore them.
        #expect(try AnimatedImageTimeline.read(whole + Data([0, 0, 0]))?.frameMilliseconds.count == 3)
    }

    @Test("An APNG's frames keep their fcTL delays as ffmpeg plays them: a denominator of 0 means hundredths, a numerator of 0 a 15th")
    func apngDelays() throws {
        let timeline = try #require(try AnimatedImageTimeline.read(Self.apng(delays: [(1, 30), (40, 0), (1, 2), (0, 100), (1, 200)])))
        #expect(timeline.frameMilliseconds == [33, 400, 500, 67, 5])
        // Exact thirtieths: frame 15 of a 30 fps APNG starts at 0.5 s, not at 15 × 33 ms.
        let thirty = try #require(try AnimatedImageTimeline.read(Self.apng(delays: Array(repeating: (1, 30), count: 20))))
        #expect(ClipPiece(start: 0.497).firstFrameIndex(frameStarts: thirty.frameStarts.dropLast()) == 15)
    }

    @Test("An APNG cut short, inside a chunk or before IEND, is unreadable")
    func apngCutShort() throws {
        let whole = Self.apng(delays: [(1, 10), (1, 10)])
        #expect(try AnimatedImageTimeline.read(whole)?.frameMilliseconds == [100, 100])
        // Without only its IEND it plays whole, as ffmpeg and Pillow play it.
        #expect(try AnimatedImageTimeline.read(whole.prefix(whole.count - 12))?.frameSeconds.count == 2)
        for length in [60, whole.count - 20, whole.count - 13, whole.count - 1] {
            #expect(throws: ClipError.self, "cut at \(length) of \(whole.count)") {
                _ = try AnimatedImageTimeline.read(whole.prefix(length))
            }
        }
    }

    @Test("A FIFO named like a GIF is not read for a timeline (its bytes are ffmpeg's)")
    func fifoIsNotRead() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "timeline-\(UUID().uuidString).gif").path
        try #require(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        // Opening it to read would wait for a writer that never comes.
        #expect(try AnimatedImageTimeline.read(contentsOf: URL(fileURLWithPath: path)) == nil)
    }

    @Test("A still PNG, a JPEG or a video has no timeline of its own")
    func othersHaveNone() throws {
        #expect(try AnimatedImageTimeline.read(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8))) == nil)
        #expect(try AnimatedImageTimeline.read(Data([0xFF, 0xD8, 0xFF, 0xE0])) == nil)
        #expect(try AnimatedImageTimeline.read(Data([0, 0, 0, 0x18] + Array("ftypmp42".utf8))) == nil)
    }
}
