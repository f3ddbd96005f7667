import AtomicFiles
import Foundation
import Raster
@testable import stickers
import Testing

/// `--mask DIR` for a clip: the folder holds one run's masks, whole, and never loses an earlier
/// run's to a run that fails.
@Suite("A clip's mask folder")
struct MaskFilesTests {
    /// A folder holding an earlier run's masks 0000.png and 0002.png ("old") and a file of the user's.
    static func folderWithEarlierMasks() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "mask-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["0000.png", "0002.png", "notes.txt"] { try Data("old".utf8).write(to: folder.appending(path: name)) }
        return folder
    }

    static func contents(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    static let alpha = Mask(width: 4, height: 2, values: [0, 255, 255, 0, 0, 128, 255, 0])

    @Test("An earlier run's masks stay until the new ones are made; then the folder holds only the new run's masks and the user's other files")
    func madeMasksReplaceEarlierOnes() async throws {
        let folder = try Self.folderWithEarlierMasks()
        defer { try? FileManager.default.removeItem(at: folder) }
        let masks = MaskFiles(folder: folder, madeFolders: [])
        try await masks.write(Self.alpha, index: 2)
        try await masks.write(Self.alpha, index: 4)
        let during = Self.contents(of: folder)
        #expect(during.filter { !$0.hasPrefix(".") } == ["0000.png", "0002.png", "notes.txt"], "the new masks wait out of sight")
        #expect(try Data(contentsOf: folder.appending(path: "0002.png")) == Data("old".utf8))

        try await masks.commit()
        #expect(Self.contents(of: folder) == ["0002.png", "0004.png", "notes.txt"])
        #expect(try Data(contentsOf: folder.appending(path: "0002.png")).starts(with: [0x89, 0x50, 0x4E, 0x47]), "the new PNG")
    }

    @Test("A run that fails after writing masks leaves the earlier run's masks as they were, and nothing of its own")
    func failedRunKeepsEarlierMasks() async throws {
        let folder = try Self.folderWithEarlierMasks()
        defer { try? FileManager.default.removeItem(at: folder) }
        let masks = MaskFiles(folder: folder, madeFolders: [])
        try await masks.write(Self.alpha, index: 0)
        try await masks.write(Self.alpha, index: 2)
        await masks.removeAll()
        #expect(Self.contents(of: folder) == ["0000.png", "0002.png", "notes.txt"])
        #expect(try Data(contentsOf: folder.appending(path: "0000.png")) == Data("old".utf8))
    }

    @Test("A killed run's hidden masks go at the next run; a running one's stay")
    func killedRunsMasksGo() throws {
        let folder = try Self.folderWithEarlierMasks()
        defer { try? FileManager.default.removeItem(at: folder) }
        // No process has a pid this large (Linux's pid_max is at most 2^22).
        let killed = folder.appending(path: ".masks.99999999.\(UUID().uuidString).partial")
        let running = AtomicFileWriter.temporaryURL(for: folder.appending(path: "masks"))
        for hidden in [killed, running] {
            try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: false)
            try Data("x".utf8).write(to: hidden.appending(path: "0000.png"))
        }
        AtomicFileWriter.removeLeftovers(in: folder)
        #expect(Self.contents(of: folder) == [running.lastPathComponent, "0000.png", "0002.png", "notes.txt"].sorted())
    }

    @Test("Mask names are four or more digits and .png")
    func maskNames() {
        #expect(MaskFiles.isMaskName("0000.png") && MaskFiles.isMaskName("12345.png"))
        #expect(!MaskFiles.isMaskName("000.png") && !MaskFiles.isMaskName("0000.PNG") && !MaskFiles.isMaskName("a000.png")
            && !MaskFiles.isMaskName("0000.png.bak") && !MaskFiles.isMaskName(".png"))
    }
}
