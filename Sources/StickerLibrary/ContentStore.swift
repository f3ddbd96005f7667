import AtomicFiles
import ErrorReasons
import Foundation
import StickerKit

/// The library's image files, content-addressed: a file is named by the digest of its bytes
/// (`ab/abcdef….png`), so the same bytes are stored once however often they are added, and a
/// name in the database never points at other bytes than those it was given.
public struct ContentStore: Sendable {
    public let folder: URL

    public init(folder: URL) {
        self.folder = folder
    }

    /// Stores `data` (when not there already) and returns its name relative to `folder`.
    public func store(_ data: Data, extension ext: String) throws(LibraryError) -> String {
        let digest = ContentDigest(data).hex
        let name = "\(digest.prefix(2))/\(digest).\(ext)"
        let url = folder.appending(path: name)
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size == data.count {
            return name
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFileWriter.write(data, to: url)
        } catch {
            throw .file(path: url.path, reason: ErrorReason.of(error))
        }
        return name
    }

    /// Stores a file's bytes (see `store(_:extension:)`).
    public func importFile(_ source: URL) throws(LibraryError) -> String {
        let data: Data
        do { data = try Data(contentsOf: source) } catch {
            throw .file(path: source.path, reason: ErrorReason.of(error))
        }
        return try store(data, extension: source.pathExtension.isEmpty ? "bin" : source.pathExtension.lowercased())
    }

    /// Removes the temporary files killed processes left in the store's folders (a write running
    /// in another process keeps its own: see `AtomicFileWriter.removeLeftovers(in:)`).
    public func removeLeftovers() {
        guard let shards = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        AtomicFileWriter.removeLeftovers(in: folder)
        for shard in shards where !shard.hasPrefix(".") {
            AtomicFileWriter.removeLeftovers(in: folder.appending(path: shard, directoryHint: .isDirectory))
        }
    }

    public func url(_ name: String) -> URL {
        folder.appending(path: name)
    }
}
