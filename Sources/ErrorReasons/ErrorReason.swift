import Foundation

/// The cause of a failure in words a person can act on — "no space left on device", "permission
/// denied", "no such file", "read-only file system" — from the POSIX code inside a Foundation or
/// POSIX error; other errors by their own description. The one place messages get their
/// cause from, so the CLI, the web app and the library say the same thing for the same failure.
public enum ErrorReason {
    public static func of(_ error: any Error) -> String {
        if let error = error as? POSIXError { return words(for: error.code.rawValue) }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return words(for: Int32(nsError.code)) }
        // A Cocoa code that says what happened, in the file's story, before the errno beneath it.
        if nsError.domain == NSCocoaErrorDomain, let words = cocoaWords[nsError.code] { return words }
        // Foundation wraps the system call's errno as the underlying error: on Linux a Swift
        // `POSIXError` (which `as? NSError` does not match), elsewhere an NSError.
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error {
            if let posix = underlying as? POSIXError { return words(for: posix.code.rawValue) }
            let bridged = underlying as NSError
            if bridged.domain == NSPOSIXErrorDomain { return words(for: Int32(bridged.code)) }
        }
        if nsError.domain == NSCocoaErrorDomain { return nsError.localizedDescription }
        // Our own errors describe themselves in words.
        return String(describing: error)
    }

    /// The code's reason: the common ones worded for a file's story, the rest as the C library
    /// says them (first letter lowercased, to follow a colon).
    public static func words(for code: Int32) -> String {
        switch code {
        case ENOSPC: "no space left on device"
        case EACCES, EPERM: "permission denied"
        case ENOENT: "no such file"
        case EROFS: "read-only file system"
        case EISDIR: "it is a folder"
        case EEXIST: "a file of that name already exists"
        case ENOTDIR: "a part of the path is not a folder"
        case EDQUOT: "disk quota exceeded"
        case EIO: "input/output error"
        default:
            { $0.prefix(1).lowercased() + $0.dropFirst() }(String(cString: strerror(code)))
        }
    }

    private static let cocoaWords: [Int: String] = [
        CocoaError.fileNoSuchFile.rawValue: "no such file",
        CocoaError.fileReadNoSuchFile.rawValue: "no such file",
        CocoaError.fileReadNoPermission.rawValue: "permission denied",
        CocoaError.fileWriteNoPermission.rawValue: "permission denied",
        CocoaError.fileWriteOutOfSpace.rawValue: "no space left on device",
        CocoaError.fileWriteVolumeReadOnly.rawValue: "read-only file system",
        // Foundation's createDirectory where a file of that name is in the way.
        CocoaError.fileWriteFileExists.rawValue: "a file of that name already exists",
        CocoaError.fileReadTooLarge.rawValue: "the file is too large",
    ]
}
