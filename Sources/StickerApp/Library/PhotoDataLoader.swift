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
            let size: Int, isRegularFile: Bool
            do {
                let values = try url.resourceValues(forKeys: [.fileSizeKey, .isDirectoryKey, .isRegularFileKey])
                if values.isDirectory == true { throw PhotoLoadingError.unreadableFile("\(url.path) is a folder") }
                size = values.fileSize ?? 0
                isRegularFile = values.isRegularFile ?? true
            } catch let error as PhotoLoadingError {
                throw error
            } catch {
                throw .unreadableFile("cannot read \(url.path): \(ErrorReason.of(error))")
            }
            guard size <= maxFileSize else {
                throw .unreadableFile("\(url.lastPathComponent) is \(size / 1_048_576) MB, larger than any photo we accept")
            }
            do {
                guard isRegularFile else { return try readStream(url) }
                return try Data(contentsOf: url, options: .mappedIfSafe)
            } catch let error as PhotoLoadingError {
                throw error
            } catch {
                throw .unreadableFile("cannot read \(url.path): \(ErrorReason.of(error))")
            }
        }
    }

    /// A pipe or FIFO (`stickers make <(curl …)`): read as a stream, which cannot be mapped (Foundation
    /// reported "permission denied"), at most `maxFileSize` bytes.
    private func readStream(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let data = try handle.read(upToCount: maxFileSize + 1) ?? Data()
        guard data.count <= maxFileSize else {
            throw PhotoLoadingError.unreadableFile("\(url.lastPathComponent) is larger than any photo we accept")
        }
        return data
    }
}

nonisolated public enum PhotoLoadingError: Error, Sendable, Hashable {
    case unreadableFile(String)
}
