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
            try Task.checkCancellation()
            guard rename(temporary.path, destination.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [
                    NSFilePathErrorKey: destination.path,
                    NSLocalizedDescriptionKey: "cannot move the new file into place: \(String(cString: strerror(errno)))",
                ])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    public static func write(_ data: Data, to destination: URL) throws {
        try write(to: destination) { temporary in try data.write(to: temporary) }
    }
}
