import Foundation

/// Turns a pack export (which writes a ZIP atomically to a URL) into bytes for a download: the
/// pack is written into a private temporary folder, read back, and the folder removed.
enum PackWriter {
    static func zip(_ export: (URL) async throws -> Void) async throws(WebError) -> Data {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("stickers-web-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("stickers.zip")
            try await export(file)
            return try Data(contentsOf: file)
        } catch {
            throw .unprocessable("the pack could not be written: \(error.localizedDescription)")
        }
    }
}
