import AtomicFiles
import Foundation
import Testing
import ZIPFoundation
@testable import StickerKit

@Suite struct StickerPackTests {
    let scheme = PhotoColorScheme(colors: [
        PaletteColor(red: 255, green: 0, blue: 0, weight: 0.75),
        PaletteColor(red: 0, green: 0, blue: 255, weight: 0.25),
    ])

    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "pack-tests-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aPackHoldsTwoPNGsPerPhotoPlusPalettesAndManifest() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let pack = StickerPack(
            items: [StickerPack.Item(name: "cat", stickerPNG: Data([1, 2, 3]), gradientPNG: Data([4, 5]), colorScheme: scheme)],
            invalidPhotos: [.init(name: "broken", reason: "unreadable image: truncated")]
        )
        let url = dir.appending(path: "pack.zip")

        try pack.write(to: url)

        let archive = try Archive(url: url, accessMode: .read)
        let names = Set(archive.map(\.path))
        #expect(names == ["cat.sticker.png", "cat.gradient.png", "palettes.json", "manifest.json"])
        var palettes = Data()
        _ = try archive.extract(archive["palettes.json"]!) { palettes.append($0) }
        let json = try JSONSerialization.jsonObject(with: palettes) as! [String: Any]
        let photos = json["photos"] as! [[String: Any]]
        let colors = photos[0]["colors"] as! [[String: Any]]
        #expect(colors.map { $0["hex"] as! String } == ["#FF0000", "#0000FF"])
        var manifest = Data()
        _ = try archive.extract(archive["manifest.json"]!) { manifest.append($0) }
        #expect(String(decoding: manifest, as: UTF8.self).contains("truncated"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["pack.zip"], "no temporary file is left")
    }

    @Test("A clip's animated WebP goes in the pack as NAME.sticker.webp beside the stills, listed as animated; a pack of stills is as it was")
    func clipsGoInThePackNamedLikeTheStills() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let still = StickerPack.Item(name: "cat", stickerPNG: Data([1, 2, 3]), gradientPNG: Data([4, 5]), colorScheme: scheme)
        let webp = Data("RIFF....WEBPVP8X".utf8)
        let url = dir.appending(path: "pack.zip")
        try StickerPack(items: [still, .animated(name: "cat", webp: .data(webp))]).write(to: url)

        let archive = try Archive(url: url, accessMode: .read)
        #expect(Set(archive.map(\.path)) == ["cat.sticker.png", "cat.gradient.png", "cat-2.sticker.webp", "palettes.json", "manifest.json"])
        var bytes = Data()
        _ = try archive.extract(archive["cat-2.sticker.webp"]!) { bytes.append($0) }
        #expect(bytes == webp)
        var manifest = Data()
        _ = try archive.extract(archive["manifest.json"]!) { manifest.append($0) }
        let stickers = try #require((try JSONSerialization.jsonObject(with: manifest) as? [String: Any])?["stickers"] as? [[String: Any]])
        #expect(stickers.count == 2)
        #expect(stickers[0]["animated"] == nil && stickers[0]["gradient"] as? String == "cat.gradient.png")
        #expect(stickers[1]["animated"] as? Bool == true && stickers[1]["sticker"] as? String == "cat-2.sticker.webp")
        #expect(stickers[1]["gradient"] == nil, "a clip has no gradient picture")
        var palettes = Data()
        _ = try archive.extract(archive["palettes.json"]!) { palettes.append($0) }
        let photos = try #require((try JSONSerialization.jsonObject(with: palettes) as? [String: Any])?["photos"] as? [[String: Any]])
        #expect(photos.map { $0["name"] as? String } == ["cat"], "the palettes are the photos'")

        // A pack of stills alone: the manifest as it always was (no `animated`).
        let stills = StickerPack(items: [still])
        let text = String(decoding: try stills.manifestJSON(names: stills.entryNames), as: UTF8.self)
        #expect(!text.contains("animated") && text.contains("\"gradient\" : \"cat.gradient.png\""), "\(text)")
    }

    @Test("The pack's palettes.json weights sum to exactly 1, rounded as palette --format json rounds them")
    func palettesWeightsSumToOne() throws {
        let thirds = PhotoColorScheme(colors: [
            PaletteColor(red: 1, green: 0, blue: 0, weight: 1.0 / 3),
            PaletteColor(red: 0, green: 1, blue: 0, weight: 1.0 / 3),
            PaletteColor(red: 0, green: 0, blue: 1, weight: 1.0 / 3),
        ])
        let pack = StickerPack(items: [StickerPack.Item(name: "t", stickerPNG: Data(), gradientPNG: Data(), colorScheme: thirds)])
        let text = String(decoding: try pack.palettesJSON(names: pack.entryNames), as: UTF8.self)
        // As decimals in the file: 0.3334 + 0.3333 + 0.3333, not 3 × 0.3333.
        let weights = text.split(separator: "\"weight\"").dropFirst().map { part in
            Decimal(string: String(part.drop { $0 == " " || $0 == ":" }.prefix { "0123456789.".contains($0) }))!
        }
        #expect(weights.count == 3 && weights.reduce(0, +) == 1, "\(text)")
        let json = JSONPalette.encode(thirds)
        #expect(json.contains("0.3334") && json.contains("0.3333"))
    }

    @Test func photosWithTheSameNameGetDistinctEntries() {
        let item = StickerPack.Item(name: "IMG_0001", stickerPNG: Data(), gradientPNG: Data(), colorScheme: scheme)
        let pack = StickerPack(items: [item, item, item])
        #expect(pack.entryNames == ["IMG_0001", "IMG_0001-2", "IMG_0001-3"])
    }

    @Test func namesCannotEscapeTheArchive() {
        #expect(StickerPack.safeFileName("../../etc/passwd") == "_.._etc_passwd")
        #expect(StickerPack.safeFileName("..") == "photo")
    }

    @Test func aFailedWriteLeavesTheExistingFileUntouched() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appending(path: "pack.zip")
        try Data("old pack".utf8).write(to: url)
        struct Boom: Error {}

        #expect(throws: Boom.self) {
            try AtomicFileWriter.write(to: url) { temporary in
                try Data("half".utf8).write(to: temporary)
                throw Boom()
            }
        }

        #expect(try Data(contentsOf: url) == Data("old pack".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["pack.zip"])
    }
}
