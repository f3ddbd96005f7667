import Foundation

/// The bytes of a photo named on the command line. A regular file is read as Foundation reads it;
/// anything else is read to its end through a handle: a pipe (`sticker <(curl …)`, `/dev/stdin`)
/// or a device (`/dev/null`: empty, then refused as no image) would otherwise fail with EACCES
/// from `Data(contentsOf:)`, reported as a permission the user does have.
enum InputBytes {
    /// Larger than any photo the decoders take (their pixel limit, compressed): 1 GiB.
    static let maximumBytes = 1 << 30

    static func read(_ path: String) throws -> Data {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
            defer { try? handle.close() }
            // A bound: `/dev/zero` or an endless pipe must end in a refusal, not fill the memory.
            var data = Data()
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                data.append(chunk)
                guard data.count <= maximumBytes else {
                    throw CocoaError(.fileReadTooLarge, userInfo: [NSFilePathErrorKey: path])
                }
            }
            return data
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }
}
