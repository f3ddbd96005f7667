import Foundation
import Testing
import StickerKit

@Suite struct PhotoFolderTests {
    /// A folder of photos and other files: `names` are created (with their subfolders) as files.
    func folder(_ names: [String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appending(path: "photo-folder-\(UUID().uuidString)")
        for name in names {
            let file = root.appending(path: name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([0xFF, 0xD8, 0xFF]).write(to: file)
        }
        return root
    }

    @Test("A folder's photos are found recursively in natural order, other and hidden files skipped")
    func photosInNaturalOrder() throws {
        let root = try folder(["photo10.jpg", "photo2.JPEG", "a/photo1.png", "README.md", ".hidden.jpg",
                               ".cache/inside.jpg", "b/scan.jfif", "notes.txt"])
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appending(path: "folder.jpg"), withIntermediateDirectories: true)
        let names = try PhotoFolder(root).photoFiles().map { $0.path.dropFirst(root.path.count + 1) }
        #expect(names == ["a/photo1.png", "b/scan.jfif", "photo2.JPEG", "photo10.jpg"])
    }

    @Test("With clips, a folder's videos and GIFs are found among its photos, in natural order")
    func clipsAmongThePhotos() throws {
        let root = try folder(["b.jpg", "clip 10.mp4", "clip 2.GIF", "a/turn.webm", "README.md", "notes.txt"])
        defer { try? FileManager.default.removeItem(at: root) }
        let names = try PhotoFolder(root).photoFiles(clips: true).map { $0.path.dropFirst(root.path.count + 1) }
        #expect(names == ["a/turn.webm", "b.jpg", "clip 2.GIF", "clip 10.mp4"])
        #expect(try PhotoFolder(root).photoFiles().map(\.lastPathComponent) == ["b.jpg"])
    }

    @Test("A limit keeps the first photos in order, not the first the walk meets")
    func limitKeepsTheFirstInOrder() throws {
        let root = try folder((1...12).map { "p\($0).jpg" })
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try PhotoFolder(root).photoFiles(limit: 3).map(\.lastPathComponent) == ["p1.jpg", "p2.jpg", "p3.jpg"])
    }

    @Test("Only the formats the decoder reads count as photos")
    func extensionsFollowTheDecoder() {
        #expect(PhotoFolder.extensions == ["jpg", "jpeg", "jpe", "jfif", "png", "webp"] as Set)
    }

    @Test("A folder that is not there cannot be read, and says so")
    func missingFolder() {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)")
        #expect(throws: PhotoFolderError.unreadable(missing)) { try PhotoFolder(missing).photoFiles() }
    }
}
