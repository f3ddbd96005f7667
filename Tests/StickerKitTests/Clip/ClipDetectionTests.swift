import Foundation
import StickerKit
import Testing

@Suite("Clip detection: a file's first bytes, or its extension when it cannot be read safely")
struct ClipDetectionTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "clip-detection-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("A file is sniffed by its first bytes, whatever its name says")
    func regularFilesAreSniffed() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gifNamedPhoto = dir.appending(path: "photo.jpg")
        try Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8).write(to: gifNamedPhoto)
        let pngNamedClip = dir.appending(path: "clip.mp4")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: pngNamedClip)
        #expect(ClipDetection.isClip(path: gifNamedPhoto.path))
        #expect(!ClipDetection.isClip(path: pngNamedClip.path))
        let mp4NamedPhoto = dir.appending(path: "clip.jpg")
        try Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 0, 0]).write(to: mp4NamedPhoto)
        let jpegNamedClip = dir.appending(path: "photo.mp4")
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 12)).write(to: jpegNamedClip)
        #expect(ClipDetection.isClip(path: mp4NamedPhoto.path))
        #expect(!ClipDetection.isClip(path: jpegNamedClip.path))
    }

    @Test("A symbolic link is sniffed like the file it points to")
    func symbolicLinksAreFollowed() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appending(path: "still.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: png)
        let link = dir.appending(path: "link.mkv")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: png)
        #expect(!ClipDetection.isClip(path: link.path))
    }

    @Test("A FIFO, a folder or a missing file is judged by its extension, never opened")
    func nonRegularFilesGoByExtension() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appending(path: "stream.mp4")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(ClipDetection.isClip(path: fifo.path))  // would block here if it were opened
        let folder = dir.appending(path: "photos.webm")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        #expect(ClipDetection.isClip(path: folder.path))
        #expect(!ClipDetection.isClip(path: dir.appending(path: "missing.jpg").path))
        #expect(ClipDetection.isClip(path: dir.appending(path: "missing.gif").path))
    }

    /// PNG bytes: the signature, an IHDR, then `chunks` (type, data length), then IDAT and IEND
    /// (lengths and contents only as far as the detection reads them; CRCs zero).
    private func png(_ chunks: [(String, Int)]) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        for (type, length) in [("IHDR", 13)] + chunks + [("IDAT", 2), ("IEND", 0)] {
            data += [UInt8(length >> 24 & 255), UInt8(length >> 16 & 255), UInt8(length >> 8 & 255), UInt8(length & 255)]
            data += Data(type.utf8) + Data(count: length) + Data(count: 4)
        }
        return data
    }

    @Test("An animated PNG (acTL before IDAT) is a clip, by path or by an upload's bytes, even behind a large chunk; a still PNG is a photo")
    func animatedPNGIsAClip() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let animated = png([("acTL", 8), ("fcTL", 26)])
        let behindProfile = png([("iCCP", 200_000), ("acTL", 8)])
        let still = png([("sRGB", 1)])
        let late = png([("sRGB", 1)]) + png([("acTL", 8)]).dropFirst(8)  // acTL after the first IDAT: not APNG
        for (name, data, isClip) in [("a.png", animated, true), ("b.png", behindProfile, true), ("s.png", still, false),
                                     ("late.png", late, false), ("a.jpg", animated, true)] {
            let url = dir.appending(path: name)
            try data.write(to: url)
            #expect(ClipDetection.isClip(path: url.path) == isClip, "\(name)")
            #expect(ClipDetection.isClip(head: data, name: "") == isClip, "\(name)")
        }
        // An upload's first bytes only: a still PNG is never taken for a clip for want of bytes.
        #expect(!ClipDetection.isClip(head: animated.prefix(20), name: "x.png"))
    }
}
