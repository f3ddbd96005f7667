import Foundation

/// Writes a file so that readers see either the old file or the complete new one, never a part:
/// the content goes to a hidden temporary file beside the target, which is renamed over it
/// (rename(2) is atomic within a file system). On any failure or cancellation the temporary file
/// is removed and the target is left as it was.
public enum AtomicFileWriter {
    public static func write(to destination: URL, _ produce: (URL) throws -> Void) throws {
        let directory = destination.deletingLastPathComponent()
        let temporary = directory.appending(path: ".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try produce(temporary)
            // The last moment to give up: after the rename the file is complete and in place.
            try Task.checkCancellation()
            guard rename(temporary.path, destination.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Writes `data` and flushes it to the disk before the rename, so a crash right after cannot
    /// leave a complete-looking but empty file.
    public static func write(_ data: Data, to destination: URL) throws {
        try write(to: destination) { temporary in
            // open(2) rather than FileManager.createFile, whose failure says nothing of its cause
            // (a missing folder was reported as "permission denied").
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            defer { try? handle.close() }
            try handle.write(contentsOf: data)
            try handle.synchronize()
        }
    }

    /// The error a failed write really was. Some writers (ZIPFoundation's "DataError error 1")
    /// report a failed write without its cause: when the C library's last error, read at once, or
    /// the file system's free space says the disk is full, that is what failed. Call it in the
    /// `catch`, before anything is removed.
    public static func diagnose(_ error: any Error, writing url: URL) -> any Error {
        let code = errno
        if error is CancellationError || (error as NSError).domain == NSPOSIXErrorDomain { return error }
        if code == ENOSPC || code == EDQUOT { return POSIXError(POSIXErrorCode(rawValue: code) ?? .ENOSPC) }
        var stats = statvfs()
        if statvfs(url.deletingLastPathComponent().path, &stats) == 0,
           UInt64(stats.f_bavail) * UInt64(stats.f_frsize) < 64 * 1024 {
            return POSIXError(.ENOSPC)
        }
        return error
    }

}
