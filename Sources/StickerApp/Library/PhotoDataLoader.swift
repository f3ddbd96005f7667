import ErrorReasons
import Foundation
import StickerKit

/// Reads a selected photo's bytes off the main actor, refusing files too large to be a photo.
nonisolated struct PhotoDataLoader: Sendable {
    /// Larger files are refused before reading: no phone or camera photo comes near it.
    var maxFileSize = 200 * 1024 * 1024

    @concurrent func data(for photo: SelectedPhoto) async throws(PhotoLoadingError) -> Data {
        switch photo.source {
        case .data(let data):
            return data
        case .file(let url):
            let size: Int
            do {
                let values = try url.resourceValues(forKeys: [.fileSizeKey, .isDirectoryKey])
                if values.isDirectory == true { throw PhotoLoadingError.unreadableFile("\(url.path) is a folder") }
                size = values.fileSize ?? 0
            } catch let error as PhotoLoadingError {
                throw error
            } catch {
                throw .unreadableFile("cannot read \(url.path): \(ErrorReason.of(error))")
            }
            guard size <= maxFileSize else {
                throw .unreadableFile("\(url.lastPathComponent) is \(size / 1_048_576) MB, larger than any photo we accept")
            }
            do {
                return try Data(contentsOf: url, options: .mappedIfSafe)
            } catch {
                throw .unreadableFile("cannot read \(url.path): \(ErrorReason.of(error))")
            }
        }
    }
}

public enum PhotoLoadingError: Error, Sendable, Hashable {
    case unreadableFile(String)
}
