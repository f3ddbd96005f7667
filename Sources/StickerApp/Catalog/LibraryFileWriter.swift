import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file so that readers only ever see nothing or the whole file: the bytes go to a hidden
/// temporary file in the same folder, are flushed, and the temporary file is renamed over the
/// destination (rename is atomic within one file system). On failure or cancellation the
/// temporary file is removed and the destination is untouched.
///
/// Unlike StickerKit's synchronous `AtomicFileWriter`, this one runs off the caller's actor (the
/// model is on the main actor and images are megabytes) and flushes before the rename.
nonisolated enum LibraryFileWriter {
    enum Failure: Error, Equatable {
        case cancelled
        case io(String)
    }

    @concurrent
    static func write(_ data: Data, to destination: URL) async throws(Failure) {
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appending(path: ".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .io("cannot create the folder \(folder.path): \(reason(error))")
        }
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
                throw Failure.io("cannot create a file in \(folder.path)")
            }
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
            // The last moment to give up: after the rename the file is complete and in place.
            if Task.isCancelled { throw Failure.cancelled }
            guard rename(temporary.path, destination.path) == 0 else {
                throw Failure.io("cannot move the file into place: \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            if let failure = error as? Failure { throw failure }
            throw .io("cannot write \(destination.path): \(reason(error))")
        }
    }

    /// The POSIX reason inside a Foundation file error ("Permission denied"), else its description.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
