import Foundation
@testable import stickers
import Testing

@Suite("make's inputs: a folder's photos and clips")
struct PhotoInputsTests {
    @Test("A folder's GIFs and videos are found as clips, its photos as photos, each once")
    func foldersGiveTheirGIFsAsClips() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "photo-inputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appending(path: "sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a.jpg", "b.GIF", "sub/c.mp4", "sub/d.gif", "notes.txt", ".hidden.gif"] {
            try Data("x".utf8).write(to: folder.appending(path: name))
        }
        let collected = PhotoInputs.collect([folder.path, folder.appending(path: "b.GIF").path])
        #expect(collected.files.map(\.lastPathComponent) == ["a.jpg"])
        #expect(collected.clips.map(\.lastPathComponent) == ["b.GIF", "c.mp4", "d.gif"])
        #expect(collected.missing.isEmpty)
    }
}
