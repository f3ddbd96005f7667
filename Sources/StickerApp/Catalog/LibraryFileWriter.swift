import AtomicFiles
import ErrorReasons
import Foundation
import StickerKit

/// Saves a downloaded photo into the library folder off the caller's actor (the model is on the
/// main actor and images are megabytes), atomically and flushed, through StickerKit's
/// `AtomicFileWriter`; creates the folder first and words failures for the person.
nonisolated enum LibraryFileWriter {
    enum Failure: Error, Equatable {
        case cancelled
        /// The file (or folder) and the cause in words: "no space left on device".
        case io(path: String, reason: String)
    }

    @concurrent
    static func write(_ data: Data, to destination: URL) async throws(Failure) {
        let folder = destination.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .io(path: folder.path, reason: ErrorReason.of(error))
        }
        do {
            try AtomicFileWriter.write(data, to: destination)
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .io(path: destination.path, reason: ErrorReason.of(error))
        }
    }
}
