import ErrorReasons
import Foundation

/// Turns a pack export (which writes a ZIP atomically to a URL) into bytes for a download: the
/// pack is written into a private temporary folder, read back, and the folder removed.
enum PackWriter {
    static func zip(_ export: (URL) async throws -> Void) async throws(WebError) -> Data {
        try await file(named: "stickers.zip", export)
    }

    /// The same for any one file the export writes (a WebError it throws passes through).
    static func file(named name: String, _ export: (URL) async throws -> Void) async throws(WebError) -> Data {
        let folder = ScratchFolder.newURL()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent(name)
            try await export(file)
            return try Data(contentsOf: file)
        } catch let error as WebError {
            throw error
        } catch {
            // The cause in words ("no space left on device"), not Foundation's generic sentence.
            throw .insufficientStorage("the pack could not be written: \(ErrorReason.of(error))")
        }
    }
}
