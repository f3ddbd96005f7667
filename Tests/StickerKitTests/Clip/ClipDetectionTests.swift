import Foundation
import Testing
@testable import StickerKit

/// `ClipDetection.isClip(path:)` sniffs regular files only; anything else goes by its name.

private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appending(path: "clip-detection-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

@Test func aRegularFileIsToldByItsFirstBytesWhateverItsName() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let mp4 = dir.appending(path: "clip.jpg")
    try Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [0, 0, 0, 0]).write(to: mp4)
    let jpeg = dir.appending(path: "photo.mp4.jpg")
    try Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0, count: 12)).write(to: jpeg)
    #expect(ClipDetection.isClip(path: mp4.path))
    #expect(!ClipDetection.isClip(path: jpeg.path))
}

@Test func aFolderOrAFIFOGoesByItsNameWithoutBeingRead() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let photos = dir.appending(path: "photos.jpg")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: false)
    #expect(!ClipDetection.isClip(path: photos.path))
    let fifo = dir.appending(path: "pipe.webm")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    // Reading a FIFO with no writer would block: the answer comes from its name.
    #expect(ClipDetection.isClip(path: fifo.path))
    #expect(!ClipDetection.isClip(path: dir.appending(path: "missing.png").path))
}
