@testable import AtomicFiles
import Foundation
import Testing
@testable import StickerKit

/// A process killed in the middle of a write (`kill -9`) leaves its hidden temporary file; the
/// next write to that folder removes it, but never the temporary file of a write still running.
@Suite struct AtomicFileWriterTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The id of a process that has ended.
    private func endedProcessID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test("The next write removes a killed process's leftovers and keeps a running one's")
    func leftoversOfEndedProcessesAreRemoved() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let dead = ".pack.zip.\(try endedProcessID()).\(UUID().uuidString).partial"
        let alive = ".pack.zip.\(getpid()).\(UUID().uuidString).partial"
        let unrelated = ".notes.partial"
        for name in [dead, alive, unrelated] { try Data("x".utf8).write(to: root.appending(path: name)) }

        try AtomicFileWriter.write(Data("pack".utf8), to: root.appending(path: "pack.zip"))

        let left = Set(try FileManager.default.contentsOfDirectory(atPath: root.path))
        #expect(left == [alive, unrelated, "pack.zip"])
    }

    @Test("A temporary file names the writing process")
    func temporaryNamesItsProcess() {
        let url = AtomicFileWriter.temporaryURL(for: URL(fileURLWithPath: "/tmp/out/pack.zip"))
        #expect(url.deletingLastPathComponent().path == "/tmp/out")
        #expect(AtomicFileWriter.leftoverProcessID(url.lastPathComponent) == getpid())
        #expect(AtomicFileWriter.leftoverProcessID(".pack.zip.partial") == nil)
        #expect(AtomicFileWriter.leftoverProcessID(".pack.zip.12.not-a-uuid.partial") == nil)
    }
}
