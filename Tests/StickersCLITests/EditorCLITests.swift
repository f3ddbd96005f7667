import Foundation
import Raster
import Testing
import TestSupport
import ZIPFoundation

/// The editor's options on the command line: captions (sticker and make), --erase/--restore, --box.
@Suite struct EditorCLITests {
    @Test("Bad editor values exit 64 with a message, before any work", arguments: [
        ["sticker", "a.jpg", "-o", "x.png", "--caption", String(repeating: "long ", count: 41)],
        ["sticker", "a.jpg", "-o", "x.png", "--caption", "hi", "--font", "/no/such/font.ttf"],
        ["sticker", "a.jpg", "-o", "x.png", "--caption", "hi", "--caption-color", "yellowish"],
        ["sticker", "a.jpg", "-o", "x.png", "--caption", "hi", "--caption-position", "middle"],
        ["sticker", "a.jpg", "-o", "x.png", "--caption", "   "],
        ["sticker", "a.jpg", "-o", "x.png", "--erase", "/no/such/mask.png"],
        ["sticker", "a.jpg", "-o", "x.png", "--restore", "/no/such/mask.png"],
        ["sticker", "a.jpg", "-o", "x.png", "--box", "1,2,3"], ["sticker", "a.jpg", "-o", "x.png", "--box", "9,9,1,1"],
        ["sticker", "a.jpg", "-o", "x.png", "--box", "1,1,9,9", "--point", "3,3"],
        ["make", "a.jpg", "-o", "p.zip", "--caption", String(repeating: "x", count: 201)],
        ["make", "a.jpg", "-o", "p.zip", "--captions", "/no/such/captions.txt"],
        ["make", "a.jpg", "-o", "p.zip", "--caption", "hi", "--font", "/no/such/font.ttf"],
    ])
    func badValues(arguments: [String]) async throws {
        let run = try await Stickers.run(arguments)
        #expect(run.status == 64, "\(run)")
        #expect(!run.stderr.isEmpty)
    }

    @Test("Captions on real photos are read back by OCR, short and long, top and bottom; never at the canvas edge",
          arguments: ["chelsea-cat.jpg", "marigold.jpg"])
    func captionsOnPhotos(photo: String) async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment: [String: String?] = ["STICKERS_MODEL": model]
        let plainFile = folder.appending(path: "plain.png")
        let plain = try await Stickers.run(["sticker", Stickers.sample(photo), "-o", plainFile.path], environment: environment)
        #expect(plain.status == 0, "\(plain)")
        let plainHeight = try ImageDecoder.decode(Data(contentsOf: plainFile)).height
        for (text, position) in [("HELLO THERE", "top"), ("HELLO THERE", "bottom"),
                                 ("THIS STICKER SAYS SOMETHING RATHER LONG ABOUT MONDAYS AND COFFEE", "top"),
                                 ("THIS STICKER SAYS SOMETHING RATHER LONG ABOUT MONDAYS AND COFFEE", "bottom")] {
            let file = folder.appending(path: "\(position)-\(text.count).png")
            let run = try await Stickers.run(["sticker", Stickers.sample(photo), "-o", file.path, "--caption", text,
                                              "--caption-position", position], environment: environment)
            #expect(run.status == 0, "\(run)")
            let captioned = try ImageDecoder.decode(Data(contentsOf: file))
            let bandHeight = captioned.height - plainHeight
            #expect(bandHeight > 0)
            let band = captioned.cropped(x: 0, y: position == "top" ? 0 : plainHeight, width: captioned.width, height: bandHeight)
            let read = OCR.normalized(try OCR.read(band, background: RGBA8(r: 0, g: 0, b: 0), inverted: true))
            let words = text.split(separator: " ")
            let found = words.filter { read.contains($0) }
            #expect(found.count == words.count, "\(photo) \(position): read \(read)")
            // No caption pixel on the canvas's outermost rows or columns.
            let edgeRows = position == "top" ? [0] : [captioned.height - 1]
            for y in edgeRows { for x in 0..<captioned.width { #expect(captioned[x, y].a == 0) } }
            for y in 0..<captioned.height where (position == "top" ? y < bandHeight : y >= plainHeight) {
                #expect(captioned[0, y].a == 0 && captioned[captioned.width - 1, y].a == 0)
            }
        }
    }

    @Test("make takes each photo's caption from a sidecar file or --captions FILE, drawn on its sticker in the pack")
    func makeCaptions() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = folder.appending(path: "photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for name in ["coffee.png", "ladybird.jpg"] {
            try FileManager.default.copyItem(atPath: Stickers.sample(name), toPath: photos.appending(path: name).path)
        }
        try Data("HOT COFFEE".utf8).write(to: photos.appending(path: "coffee.caption.txt"))
        let captions = folder.appending(path: "captions.txt")
        try Data("# name: text\nladybird.jpg: LUCKY BUG\n".utf8).write(to: captions)
        let pack = folder.appending(path: "pack.zip")
        let environment: [String: String?] = ["STICKERS_MODEL": model, "STICKERS_CACHE_DIR": folder.appending(path: "cache").path]
        let run = try await Stickers.run(["make", photos.path, "-o", pack.path, "--captions", captions.path],
                                         environment: environment)
        #expect(run.status == 0, "\(run)")
        let archive = try Archive(url: pack, accessMode: .read)
        for (name, words) in [("coffee", ["HOT", "COFFEE"]), ("ladybird", ["LUCKY", "BUG"])] {
            var png = Data()
            _ = try archive.extract(try #require(archive["\(name).sticker.png"])) { png.append($0) }
            let read = OCR.normalized(try OCR.read(try ImageDecoder.decode(png), background: RGBA8(r: 0, g: 0, b: 0), inverted: true))
            for word in words { #expect(read.contains(word), "\(name): read \(read)") }
        }
        // A caption that no font covers is refused before the pack is written.
        try Data("\u{10FFFD}".utf8).write(to: photos.appending(path: "coffee.caption.txt"))
        let refused = try await Stickers.run(["make", photos.path, "-o", folder.appending(path: "other.zip").path],
                                             environment: environment)
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("U+10FFFD"))
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "other.zip").path))
    }

    @Test("--erase makes the painted pixels transparent, --restore opaque; a mask of another shape or not an image is 64")
    func eraseAndRestore() async throws {
        let model = try await Stickers.model()
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment: [String: String?] = ["STICKERS_MODEL": model]
        let photo = Stickers.sample("coffee.png")
        let size = try ImageDecoder.decode(Data(contentsOf: URL(fileURLWithPath: photo)))
        let width = size.width, height = size.height
        let plainMask = folder.appending(path: "plain.mask.png")
        let plain = try await Stickers.run(["sticker", photo, "-o", folder.appending(path: "plain.png").path, "--mask", plainMask.path],
                                           environment: environment)
        #expect(plain.status == 0, "\(plain)")
        let before = try ImageDecoder.decode(Data(contentsOf: plainMask))
        // Erase the left half; restore a block of background near the top-right corner.
        var erase = Image(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0))
        for y in 0..<height { for x in 0..<(width / 2) { erase[x, y] = RGBA8(r: 255, g: 255, b: 255) } }
        var restore = Image(width: width, height: height, fill: RGBA8(r: 0, g: 0, b: 0))
        let block = (x: width - width / 8 - 4, y: 4, side: width / 8)
        for y in block.y..<(block.y + block.side) { for x in block.x..<(block.x + block.side) { restore[x, y] = RGBA8(r: 255, g: 255, b: 255) } }
        let eraseFile = folder.appending(path: "erase.png"), restoreFile = folder.appending(path: "restore.png")
        try ImageEncoder.png(erase).write(to: eraseFile)
        try ImageEncoder.png(restore).write(to: restoreFile)
        let editedMask = folder.appending(path: "edited.mask.png")
        let run = try await Stickers.run(["sticker", photo, "-o", folder.appending(path: "edited.png").path, "--mask", editedMask.path,
                                          "--erase", eraseFile.path, "--restore", restoreFile.path], environment: environment)
        #expect(run.status == 0, "\(run)")
        let after = try ImageDecoder.decode(Data(contentsOf: editedMask))
        var changedFarFromBrushes = 0
        for y in 0..<height {
            for x in 0..<width {
                let a = after[x, y].r
                if x < width / 2 { #expect(a == 0); continue }
                if x >= block.x && x < block.x + block.side && y >= block.y && y < block.y + block.side { #expect(a == 255); continue }
                let nearBlock = x >= block.x - 4 && x < block.x + block.side + 4 && y < block.y + block.side + 4
                if x >= width / 2 + 4 && !nearBlock && a != before[x, y].r { changedFarFromBrushes += 1 }
            }
        }
        #expect(changedFarFromBrushes == 0)

        let square = Image(width: 50, height: 50, fill: RGBA8(r: 255, g: 255, b: 255))
        let squareFile = folder.appending(path: "square.png")
        try ImageEncoder.png(square).write(to: squareFile)
        let wrongShape = try await Stickers.run(["sticker", photo, "-o", folder.appending(path: "w.png").path, "--erase", squareFile.path],
                                                environment: environment)
        #expect(wrongShape.status == (width == height ? 0 : 64), "\(wrongShape)")
        let notImage = folder.appending(path: "notes.png")
        try Data("not a mask".utf8).write(to: notImage)
        let bad = try await Stickers.run(["sticker", photo, "-o", folder.appending(path: "b.png").path, "--restore", notImage.path],
                                         environment: environment)
        #expect(bad.status == 64, "\(bad)")
        #expect(!FileManager.default.fileExists(atPath: folder.appending(path: "b.png").path))
    }
}
