import ErrorReasons
import Foundation
import StickerKit
import StickerLibrary

/// Records the packs handed out in the library's `pack` table: a file `make` wrote, or a download
/// the web app sent. A pack is recorded after it is complete, never before; the bytes are read
/// (mapped, not copied) only to name them by their digest.
nonisolated public enum PackRecords {
    /// Records the pack file at `url` (its size and digest read back from it) made by `make`.
    @concurrent public static func recordFile(_ url: URL, format: String, stickers: [String], identity: String?,
                                              in library: StickerLibrary) async throws(LibraryError) {
        let data: Data
        do { data = try Data(contentsOf: url, options: .mappedIfSafe) } catch {
            throw .unavailable(path: url.path, reason: "the pack cannot be read back: \(ErrorReason.of(error))")
        }
        try await library.recordPack(ExportedPack(bytes: data, path: url.standardizedFileURL.path, format: format, origin: .make,
                                                  stickers: stickers, identity: identity))
    }

    /// Records a pack the web app sent as a download named `fileName`.
    @concurrent public static func recordDownload(_ data: Data, fileName: String, format: String, stickers: [String], identity: String?,
                                                  in library: StickerLibrary) async throws(LibraryError) {
        try await library.recordPack(ExportedPack(bytes: data, path: fileName, format: format, origin: .download,
                                                  stickers: stickers, identity: identity))
    }
}

extension StickerViewModel {
    /// The processed photos' and clips' names in selection order: the stickers a ZIP pack of them
    /// holds (`exportPack`).
    public var processedNames: [String] {
        selection.filter { state(of: $0.id).files != nil }.map(\.name)
    }
}
