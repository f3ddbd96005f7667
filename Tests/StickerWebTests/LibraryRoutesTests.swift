import Foundation
import HummingbirdTesting
import Testing
import StickerWeb

@Suite struct LibraryRoutesTests {
    /// A library folder with two photos (one in a subfolder), a text file and a hidden file.
    func makeLibrary() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stickers-web-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("invalid"), withIntermediateDirectories: true)
        try samplePNG().write(to: folder.appendingPathComponent("bird.png"))
        try corruptJPEG.write(to: folder.appendingPathComponent("invalid/broken.jpg"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("README.txt"))
        try samplePNG().write(to: folder.appendingPathComponent(".hidden.png"))
        return folder
    }

    @Test func theLibraryFoldersPhotosAreAddedOnce() async throws {
        let library = try makeLibrary()
        defer { try? FileManager.default.removeItem(at: library) }
        try await withWebApp(library: library) { client in
            #expect(try await client.snapshot().hasLibrary)
            let response = try await client.execute(uri: "/api/stickers/library", method: .post)
            #expect(response.status == .ok)
            #expect(try response.decoded(Snapshot.self).photos.map(\.name) == ["bird", "broken"])
            let again: Snapshot = try await client.execute(uri: "/api/stickers/library", method: .post).decoded()
            #expect(again.photos.count == 2)

            let final = try await client.processAll().final
            #expect(final.photos.map(\.status) == ["processed", "invalid"])
        }
    }

    @Test func withoutALibraryFolderTheRequestIsAConflict() async throws {
        try await withWebApp { client in
            #expect(try await client.snapshot().hasLibrary == false)
            let response = try await client.execute(uri: "/api/stickers/library", method: .post)
            #expect(response.status == .conflict)
            #expect(response.errorMessage?.contains("--photos") == true)
        }
    }
}
