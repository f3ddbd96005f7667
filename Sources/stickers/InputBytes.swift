import Foundation

/// The bytes of a photo named on the command line. A regular file is read as Foundation reads it;
/// anything else is read to its end through a handle: a pipe (`sticker <(curl …)`, `/dev/stdin`)
/// or a device (`/dev/null`: empty, then refused as no image) would otherwise fail with EACCES
/// from `Data(contentsOf:)`, reported as a permission the user does have.
enum InputBytes {
    static func read(_ path: String) throws -> Data {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
            defer { try? handle.close() }
            return try handle.readToEnd() ?? Data()
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
