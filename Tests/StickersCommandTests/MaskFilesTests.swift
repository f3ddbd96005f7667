import AtomicFiles
import Foundation
import Raster
@testable import stickers
import Testing

/// `--mask DIR` for a clip: the folder holds one run's masks, whole; a run that fails leaves it as
/// it was; nothing of the user's is removed.
@Suite("A clip's mask folder")
struct MaskFilesTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "mask-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func contents(of folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    static let alpha = Mask(width: 4, height: 2, values: [0, 255, 255, 0, 0, 128, 255, 0])

    /// A run that succeeds, writing the masks of `indices`.
    static func run(_ indices: [Int], into folder: URL, output: URL? = nil) async throws {
        let masks = MaskFiles(folder: folder, madeFolders: [], output: output)
        for index in indices { try await masks.write(alpha, index: index) }
        try await masks.moveIn()
        await masks.finish()
    }

    static func isPNG(_ url: URL) throws -> Bool { try Data(contentsOf: url).starts(with: [0x89, 0x50, 0x4E, 0x47]) }

    @Test("A run's masks replace the earlier run's: those it does not use go, the user's files stay, even mask-like ones")
    func masksReplaceEarlierOnes() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.run([0, 2], into: folder)
        for name in ["notes.txt", "12345.png"] { try Data("mine".utf8).write(to: folder.appending(path: name)) }

        let masks = MaskFiles(folder: folder, madeFolders: [])
        try await masks.write(Self.alpha, index: 2)
        try await masks.write(Self.alpha, index: 4)
        #expect(Self.contents(of: folder).filter { !$0.hasPrefix(".") } == ["0000.png", "0002.png", "12345.png", "notes.txt"],
                "the new masks wait out of sight")
        try await masks.moveIn()
        await masks.finish()
        #expect(Self.contents(of: folder) == [MaskFiles.listName, "0002.png", "0004.png", "12345.png", "notes.txt"])
        #expect(try Data(contentsOf: folder.appending(path: "12345.png")) == Data("mine".utf8))
        #expect(try Self.isPNG(folder.appending(path: "0004.png")))
    }

    @Test("A run that fails after moving its masks in puts back every file they replaced, and leaves nothing of its own")
    func failedRunPutsBackEarlierMasks() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.run([0, 2], into: folder)
        let before = try Data(contentsOf: folder.appending(path: "0002.png"))
        try Data("old".utf8).write(to: folder.appending(path: "0000.png"))

        let masks = MaskFiles(folder: folder, madeFolders: [])
        for index in [0, 2, 6] { try await masks.write(Self.alpha, index: index) }
        try await masks.moveIn()
        await masks.rollBack()  // as when the sticker's own rename fails
        #expect(Self.contents(of: folder) == [MaskFiles.listName, "0000.png", "0002.png"])
        #expect(try Data(contentsOf: folder.appending(path: "0000.png")) == Data("old".utf8))
        #expect(try Data(contentsOf: folder.appending(path: "0002.png")) == before)
    }

    @Test("A folder of the user's with a mask's name stops the masks before any moves in: the folder is as it was")
    func somethingElseWithAMasksName() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("old".utf8).write(to: folder.appending(path: "0000.png"))
        try FileManager.default.createDirectory(at: folder.appending(path: "0004.png"), withIntermediateDirectories: false)

        let masks = MaskFiles(folder: folder, madeFolders: [])
        for index in [0, 2, 4] { try await masks.write(Self.alpha, index: index) }
        await #expect(throws: MaskFolderError.self) { try await masks.moveIn() }
        await masks.rollBack()
        #expect(Self.contents(of: folder) == ["0000.png", "0004.png"])
        #expect(try Data(contentsOf: folder.appending(path: "0000.png")) == Data("old".utf8))
    }

    @Test("An earlier mask is never removed when it is the sticker now written, or not a file")
    func stickerAndFoldersStay() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Self.run([0, 2, 4], into: folder)
        try FileManager.default.removeItem(at: folder.appending(path: "0004.png"))
        try FileManager.default.createDirectory(at: folder.appending(path: "0004.png"), withIntermediateDirectories: false)
        let sticker = folder.appending(path: "0002.png")
        try Data("sticker".utf8).write(to: sticker)
        try await Self.run([6], into: folder, output: sticker)
        #expect(Self.contents(of: folder) == [MaskFiles.listName, "0002.png", "0004.png", "0006.png"])
        #expect(try Data(contentsOf: sticker) == Data("sticker".utf8))
    }

    @Test("A killed run's hidden masks go at the next run; a running one's stay")
    func killedRunsMasksGo() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // No process has a pid this large (Linux's pid_max is at most 2^22).
        let killed = folder.appending(path: ".masks.99999999.\(UUID().uuidString).partial")
        let running = AtomicFileWriter.temporaryURL(for: folder.appending(path: "masks"))
        for hidden in [killed, running] {
            try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: false)
            try Data("x".utf8).write(to: hidden.appending(path: "0000.png"))
        }
        AtomicFileWriter.removeLeftovers(in: folder)
        #expect(Self.contents(of: folder) == [running.lastPathComponent])
    }

    @Test("Mask names are four or more digits and .png")
    func maskNames() {
        #expect(MaskFiles.isMaskName("0000.png") && MaskFiles.isMaskName("12345.png"))
        #expect(!MaskFiles.isMaskName("000.png") && !MaskFiles.isMaskName("0000.PNG") && !MaskFiles.isMaskName("a000.png")
            && !MaskFiles.isMaskName("0000.png.bak") && !MaskFiles.isMaskName(".png") && !MaskFiles.isMaskName("../0000.png"))
    }
}
