import Foundation
import StickerKit

/// The web app's library folder: StickerKit's `PhotoFolder` (the scanner the CLI uses too), read
/// off the caller's actor.
struct LibraryFolder: Sendable {
    var url: URL

    /// The photo files, at most `limit` of them, in natural order.
    @concurrent func photoFiles(limit: Int) async throws(WebError) -> [URL] {
        do {
            return try PhotoFolder(url).photoFiles(limit: limit)
        } catch {
            throw WebError.notFound(error.description)
        }
    }
}
