import Foundation

/// The photos of a library folder: JPEG and PNG files, found recursively, hidden files skipped,
/// in a stable (path) order. Whether a file really is an image is the processor's call: a corrupt
/// `.jpg` is listed and later flagged invalid with its reason.
struct LibraryFolder: Sendable {
    static let extensions: Set<String> = ["jpg", "jpeg", "png"]

    var url: URL

    /// The photo files, at most `limit` of them.
    @concurrent func photoFiles(limit: Int) async throws(WebError) -> [URL] {
        let keys: [URLResourceKey] = [.isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(
            at: url, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]
        ) else {
            throw WebError.notFound("library folder \(url.path) cannot be read")
        }
        var files: [URL] = []
        for case let file as URL in enumerator
        where Self.extensions.contains(file.pathExtension.lowercased())
            && (try? file.resourceValues(forKeys: Set(keys)).isRegularFile) == true {
            files.append(file)
            if files.count > limit { break }
        }
        return Array(files.sorted { $0.path < $1.path }.prefix(limit))
    }
}
