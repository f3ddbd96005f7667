import Foundation
import Raster
import Testing
import ZIPFoundation
@testable import StickerKit

/// Synthetic cut-outs: an ellipse with a white outline on transparent black, filled flat (fits
/// lossless) or with noise (forces the lossy search, and more).
enum SyntheticSticker {
    static func make(width: Int = 300, height: Int = 240, noise: Bool = false, seed: UInt64 = 1) -> Image {
        var image = Image(width: width, height: height)
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        let cx = Double(width) / 2, cy = Double(height) / 2
        let rx = Double(width) / 2 - 2, ry = Double(height) / 2 - 2
        for y in 0..<height {
            for x in 0..<width {
                let dx = (Double(x) + 0.5 - cx) / rx, dy = (Double(y) + 0.5 - cy) / ry
                let d = (dx * dx + dy * dy).squareRoot()
                let coverage = min(max((1 - d) * min(rx, ry), 0), 1)  // anti-aliased edge, ~1 px wide
                guard coverage > 0 else { continue }
                let i = (y * width + x) * 4
                if d > 1 - 8 / min(rx, ry) {
                    image.pixels[i] = 255; image.pixels[i + 1] = 255; image.pixels[i + 2] = 255  // white outline
                } else if noise {
                    state ^= state << 13; state ^= state >> 7; state ^= state << 17
                    image.pixels[i] = UInt8(truncatingIfNeeded: state)
                    image.pixels[i + 1] = UInt8(truncatingIfNeeded: state >> 8)
                    image.pixels[i + 2] = UInt8(truncatingIfNeeded: state >> 16)
                } else {
                    image.pixels[i] = 220; image.pixels[i + 1] = UInt8(60 + x % 3); image.pixels[i + 2] = 40
                }
                image.pixels[i + 3] = UInt8((coverage * 255).rounded())
            }
        }
        return image
    }
}

@Suite struct MessengerPackTests {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "messenger-pack-tests-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func inputs(_ count: Int, noisy: Set<Int> = []) -> [MessengerPack.Input] {
        (0..<count).map { i in
            MessengerPack.Input(name: "photo \(i)", image: SyntheticSticker.make(width: 200 + (i % 3) * 60, height: 240 - (i % 2) * 80,
                                                                                   noise: noisy.contains(i), seed: UInt64(i + 1)))
        }
    }

    func contents(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test("A WhatsApp pack passes every WhatsApp rule, checked by an independent validator")
    func whatsAppPackValidates() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appending(path: "cats.wastickers")
        let report = try await MessengerPack.make(inputs(4, noisy: [1]), options: .init(platform: .whatsapp, title: "Cats", author: "Me"),
                                                  output: out)
        #expect(report.packs.count == 1)
        #expect(report.packs[0].file == out.path)
        let result = try PackValidator.validate("whatsapp", [out], fringe: true)
        #expect(result.ok, "\(result.errors)")
        #expect(result.packs[0].stickers.count == 4)
        // The noisy sticker cannot fit lossless: it was searched down, and says so.
        let noisy = report.packs[0].stickers[1]
        #expect(noisy.encoding == "lossy" && noisy.quality != nil && noisy.bytes < 100 * 1024)
        #expect(report.packs[0].stickers.allSatisfy { $0.width == 512 && $0.height == 512 && !$0.emoji.isEmpty })
        #expect(try contents(dir) == ["cats.wastickers"])
    }

    @Test("More than 30 photos for WhatsApp make OUT-1, OUT-2… of 3 to 30 stickers each, all valid")
    func whatsAppSplitsIntoPacksOfThreeToThirty() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appending(path: "many.wastickers")
        let report = try await MessengerPack.make(inputs(31), options: .init(platform: .whatsapp, title: "Many", author: "Me", concurrency: 2),
                                                  output: out)
        #expect(report.packs.map(\.stickers.count) == [16, 15])
        #expect(try contents(dir) == ["many-1.wastickers", "many-2.wastickers"])
        #expect(report.packs.map(\.title) == ["Many (1/2)", "Many (2/2)"])
        let result = try PackValidator.validate("whatsapp", report.packs.map { URL(fileURLWithPath: $0.file) })
        #expect(result.ok, "\(result.errors)")
        #expect(result.packs.map(\.stickers.count) == [16, 15])
    }

    @Test("Pack sizes: as few packs as the maximum allows, each within the limits")
    func packSizesAreEven() {
        #expect(MessengerPack.packSizes(count: 3, limits: 3...30) == [3])
        #expect(MessengerPack.packSizes(count: 30, limits: 3...30) == [30])
        #expect(MessengerPack.packSizes(count: 31, limits: 3...30) == [16, 15])
        #expect(MessengerPack.packSizes(count: 61, limits: 3...30) == [21, 20, 20])
        for count in 3...200 {
            let sizes = MessengerPack.packSizes(count: count, limits: 3...30)
            #expect(sizes.reduce(0, +) == count && sizes.allSatisfy { (3...30).contains($0) })
        }
    }

    @Test("Fewer than 3 stickers for WhatsApp fail with a reason and write nothing")
    func whatsAppNeedsThree() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        await #expect(throws: MessengerPack.Failure.tooFewStickers(count: 2, minimum: 3, platform: .whatsapp)) {
            try await MessengerPack.make(inputs(2), options: .init(platform: .whatsapp, title: "T", author: "A"),
                                         output: dir.appending(path: "few.wastickers"))
        }
        #expect(try contents(dir).isEmpty)
    }

    @Test("An unwritable output folder is an I/O failure and leaves nothing behind")
    func unwritableOutput() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appending(path: "no-such-folder/pack.zip")
        await #expect {
            try await MessengerPack.make(inputs(1), options: .init(platform: .telegram, title: "T", author: "A"), output: missing)
        } throws: { error in
            guard case .io = error as? MessengerPack.Failure else { return false }
            return true
        }
        #expect(try contents(dir).isEmpty)
    }

    @Test("A Telegram set has one side exactly 512, a 100×100 thumbnail and an emoji per sticker")
    func telegramPackValidates() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appending(path: "set.zip")
        let report = try await MessengerPack.make(inputs(3, noisy: [2]), options: .init(platform: .telegram, title: "Set", author: "Me"),
                                                  output: out)
        let sizes = report.packs[0].stickers.map { [$0.width, $0.height] }
        #expect(sizes.allSatisfy { $0.max() == 512 })
        #expect(sizes.contains { $0.min()! < 512 })  // the wide and tall ones keep their shape
        let result = try PackValidator.validate("telegram", [out], fringe: true)
        #expect(result.ok, "\(result.errors)")
    }

    @Test("A Signal pack: at most 512×512 and 300 KB, exactly the chosen emoji on each")
    func signalPackValidates() async throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appending(path: "signal.zip")
        let report = try await MessengerPack.make(inputs(2, noisy: [0]), options: .init(platform: .signal, title: "S", author: "Me", emoji: "🐱"),
                                                  output: out)
        #expect(report.packs[0].stickers.map(\.emoji) == ["🐱", "🐱"])
        let result = try PackValidator.validate("signal", [out], fringe: true)
        #expect(result.ok, "\(result.errors)")
    }

    @Test("Size targeting: lossless when it fits, else the highest quality that fits, else a smaller subject")
    func sizeTargeting() throws {
        let flat = SyntheticSticker.make(width: 480, height: 480)
        let noisy = SyntheticSticker.make(width: 480, height: 480, noise: true)
        let lossless = try StickerSizeFitter.fit(limit: 100 * 1024) { _ in flat }
        #expect(lossless.isLossless && lossless.scale == 1)

        let searched = try StickerSizeFitter.fit(limit: 100 * 1024) { _ in noisy }
        #expect(!searched.isLossless && searched.bytes <= 100 * 1024)
        // One quality higher does not fit (or it is the ceiling): the best that fits.
        if let quality = searched.quality, quality < StickerSizeFitter.qualityCeiling {
            let higher = try WebP.encode(noisy, StickerSizeFitter.lossy(quality + 1))
            #expect(higher.count > 100 * 1024)
        }

        var scales: [Double] = []
        let shrunk = try StickerSizeFitter.fit(limit: 40 * 1024) { scale in
            scales.append(scale)
            return SyntheticSticker.make(width: Int(480 * scale), height: Int(480 * scale), noise: true)
        }
        #expect(shrunk.scale < 1 && shrunk.bytes <= 40 * 1024 && shrunk.quality != nil)
        #expect(scales.first == 1)
    }

    @Test("Lossy stickers keep clean edges: a white outline on transparent black stays white")
    func noDarkFringe() throws {
        var image = Image(width: 128, height: 128)  // transparent black, as a cleared canvas
        let sticker = SyntheticSticker.make(width: 120, height: 120)
        for y in 0..<120 { for x in 0..<120 { image[x + 4, y + 4] = sticker[x, y] } }
        func darkestEdge(_ settings: WebP.Settings) throws -> Int {
            let decoded = try ImageDecoder.decode(try WebP.encode(image, settings))
            var darkest = 255
            for y in 0..<128 { for x in 0..<128 where (64...230).contains(Int(decoded[x, y].a)) {
                darkest = min(darkest, Int(decoded[x, y].r), Int(decoded[x, y].g), Int(decoded[x, y].b))
            } }
            return darkest
        }
        // The fitter's lowest lossy setting; libwebp's `exact` = false does the edge cleaning.
        let ours = try darkestEdge(StickerSizeFitter.lossy(StickerSizeFitter.qualityFloor))
        var keptBlack = StickerSizeFitter.lossy(StickerSizeFitter.qualityFloor)
        keptBlack.exact = true
        let fringed = try darkestEdge(keptBlack)
        #expect(ours >= 200, "edge pixels stay near the white outline (darkest \(ours))")
        #expect(ours > fringed, "keeping the transparent black (exact) darkens the edge: \(fringed) vs \(ours)")
    }

    @Test("Every sticker gets an emoji: guessed from its name, or 🙂; --emoji must be one emoji")
    func emojiDefaults() {
        #expect(StickerEmoji.suggested(forName: "chelsea-cat") == "🐱")
        #expect(StickerEmoji.suggested(forName: "IMG_2041") == "🙂")
        #expect(StickerEmoji.suggested(forName: "") == "🙂")
        #expect(StickerEmoji.isSingleEmoji("🐱") && StickerEmoji.isSingleEmoji("❤️") && StickerEmoji.isSingleEmoji("🧑‍🚀"))
        #expect(!StickerEmoji.isSingleEmoji("") && !StickerEmoji.isSingleEmoji("🐱🐶") && !StickerEmoji.isSingleEmoji("a")
                 && !StickerEmoji.isSingleEmoji("1"))
    }
}
