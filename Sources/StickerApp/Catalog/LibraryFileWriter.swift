import ErrorReasons
import Foundation
import StickerKit

/// Saves a downloaded photo into the library folder off the caller's actor (the model is on the
/// main actor and images are megabytes), atomically and flushed, through StickerKit's
/// `AtomicFileWriter`; creates the folder first and words failures for the person.
nonisolated enum LibraryFileWriter {
    enum Failure: Error, Equatable {
        case cancelled
        case io(String)
    }

    @concurrent
    static func write(_ data: Data, to destination: URL) async throws(Failure) {
        let folder = destination.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .io("cannot create the folder \(folder.path): \(ErrorReason.of(error))")
        }
        do {
            try AtomicFileWriter.write(data, to: destination)
        } catch is CancellationError {
            throw .cancelled
        } catch {
            throw .io("cannot write \(destination.path): \(ErrorReason.of(error))")
        }
    }
}
