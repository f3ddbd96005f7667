import Foundation

/// Writes a file so that readers see either the old file or the complete new one, never a part:
/// the content goes to a hidden temporary file beside the target, which is renamed over it
/// (rename(2) is atomic within a file system). On any failure or cancellation the temporary file
/// is removed and the target is left as it was. A process killed outright (`kill -9`) cannot
/// remove its own: its temporary files name its process id, and the next write to that folder
/// removes those whose process is gone.
public enum AtomicFileWriter {
    public static func write(to destination: URL, _ produce: (URL) throws -> Void) throws {
        let temporary = temporaryURL(for: destination)
        removeLeftovers(in: destination.deletingLastPathComponent())
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

    /// A hidden file beside `destination` for its new content: `.NAME.PID.UUID.partial`.
    public static func temporaryURL(for destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appending(path: ".\(destination.lastPathComponent).\(getpid()).\(UUID().uuidString).partial")
    }

    /// Removes the temporary files in `directory` left by processes that no longer run (killed
    /// before they could clean up). Those of running processes — another write in progress — are
    /// kept; so are files this writer did not make.
    public static func removeLeftovers(in directory: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(".") && name.hasSuffix(".partial") {
            guard let pid = leftoverProcessID(name), !isRunning(pid) else { continue }
            try? FileManager.default.removeItem(at: directory.appending(path: name))
        }
    }

    /// The process id in `.NAME.PID.UUID.partial`, or nil when the name is not of that form.
    static func leftoverProcessID(_ name: String) -> pid_t? {
        let parts = name.dropFirst().split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts.last == "partial", UUID(uuidString: String(parts[parts.count - 2])) != nil,
              let pid = pid_t(parts[parts.count - 3]), pid > 0 else { return nil }
        return pid
    }

    /// Whether process `pid` still runs (for telling a killed writer's leftovers from a live one's).
    /// kill(pid, 0) delivers nothing: it only asks whether the process exists (EPERM: it does,
    /// under another user).
    public static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
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
        return unwritableCause(url.deletingLastPathComponent()) ?? error
    }

    /// The one answer to "why can't this be written?": why `needed` more bytes cannot be written
    /// into `folder` now (or over `file`, when it exists), or nil when nothing is seen to stop
    /// it: the file or folder refuses writes (access(2): "read-only file system", "permission
    /// denied", "no such file"), or the file system has less than `needed` + 64 KB free ("no
    /// space left on device"). For writers whose own error has lost its cause (ZIPFoundation,
    /// SQLite) and for checking a target before hours of work.
    public static func unwritableCause(_ folder: URL, replacing file: URL? = nil, needing needed: Int = 0) -> POSIXError? {
        if let refusal = writeRefusal(folder, replacing: file) { return refusal }
        if let free = freeBytes(folder), free < needed + 64 * 1024 { return POSIXError(.ENOSPC) }
        return nil
    }

    /// Whether `folder` refuses a new file, or `file` (when it exists) a change (access(2) with
    /// W_OK: a read-only file system, no permission, no such folder), as the error, or nil. Free
    /// space is not looked at.
    public static func writeRefusal(_ folder: URL, replacing file: URL? = nil) -> POSIXError? {
        if let file, FileManager.default.fileExists(atPath: file.path), access(file.path, W_OK) != 0 {
            return POSIXError(POSIXErrorCode(rawValue: errno) ?? .EACCES)
        }
        guard access(folder.path, W_OK | X_OK) != 0 else { return nil }
        return POSIXError(POSIXErrorCode(rawValue: errno) ?? .EACCES)
    }

    /// The bytes an unprivileged writer may still use on `folder`'s file system (statvfs), or nil
    /// when it cannot be asked.
    public static func freeBytes(_ folder: URL) -> Int? {
        var stats = statvfs()
        guard statvfs(folder.path, &stats) == 0 else { return nil }
        return Int(clamping: UInt64(stats.f_bavail) * UInt64(stats.f_frsize))
    }
}
