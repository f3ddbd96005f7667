import Foundation
import Raster

/// The photos of a folder, for the CLI's folder inputs and the web app's library folder alike:
/// files found recursively whose extension names a format the decoder reads (so a README or a
/// licence file is not taken for a broken photo; whether a `.jpg` really is one is the
/// processor's call), hidden files and folders skipped, in natural order ("photo 2" before
/// "photo 10", as a file browser lists them).
public struct PhotoFolder: Sendable, Hashable {
    /// Lowercase extensions of the formats `ImageDecoder` reads: a format made decodable in Raster
    /// is found in folders without a change here.
    public static let extensions: Set<String> = Set(ImageFormat.allCases.filter(\.isDecodable).flatMap(\.fileExtensions))

    public var url: URL

    public init(_ url: URL) { self.url = url }

    /// Whether a file of this name is taken for a photo (by its extension, any case).
    public static func isPhotoName(_ url: URL) -> Bool {
        extensions.contains(url.pathExtension.lowercased())
    }

    /// The first `limit` photo files in natural order (all of them by default); with `clips`, the
    /// files named as clips (videos, GIFs: `ClipDetection.videoExtensions`) among them, for the web
    /// app's library folder, where a clip is added like a photo.
    public func photoFiles(limit: Int = .max, clips: Bool = false) throws(PhotoFolderError) -> [URL] {
        let keys: [URLResourceKey] = [.isRegularFileKey]
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: url.path),
              let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: keys,
                                                          options: [.skipsHiddenFiles]) else {
            throw .unreadable(url)
        }
        var files: [URL] = []
        while let next = walker.nextObject() as? URL {
            let named = Self.isPhotoName(next) || clips && ClipDetection.videoExtensions.contains(next.pathExtension.lowercased())
            if named, (try? next.resourceValues(forKeys: Set(keys)).isRegularFile) == true {
                files.append(next)
            }
        }
        // All found before sorting, so the limit keeps the first photos in order, not the first met.
        files.sort { $0.path.localizedStandardCompare($1.path) == .orderedAscending }
        return Array(files.prefix(max(0, limit)))
    }
}

public enum PhotoFolderError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(URL)

    public var description: String {
        switch self {
        case .unreadable(let url): "the folder \(url.path) cannot be read"
        }
    }
}
