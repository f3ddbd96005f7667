import Foundation
import StickerKit

/// Expands the command line's inputs into photo files: files as given, folders through
/// StickerKit's `PhotoFolder` (the web app's scanner too: photo extensions, natural order, hidden
/// files skipped), each file once.
enum PhotoInputs {
    struct Collected {
        var files: [URL] = []
        /// Clips found in folders (videos, GIFs); clips given by name are among `files`.
        var clips: [URL] = []
        /// Inputs that do not exist, with the reason.
        var missing: [(path: String, reason: String)] = []
    }

    /// The clips (by extension: videos and GIFs) in `folder` and below, hidden files skipped, in
    /// name order. GIFs are not among `PhotoFolder`'s photos (the still decoder does not read
    /// them), so they are found here; an animated PNG is found as a photo and moved to the clips
    /// by its bytes (`MakeCommand`).
    static func clipFiles(in folder: URL) -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else { return [] }
        return walk.compactMap { $0 as? URL }
            .filter { ClipDetection.videoExtensions.contains($0.pathExtension.lowercased()) && !PhotoFolder.isPhotoName($0) }
            .sorted { $0.path < $1.path }
    }

    static func collect(_ inputs: [String]) -> Collected {
        var collected = Collected()
        var seen: Set<String> = []
        let manager = FileManager.default
        for input in inputs {
            let url = URL(fileURLWithPath: input)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                collected.missing.append((input, "no such file or folder"))
                continue
            }
            let found: [URL]
            if isDirectory.boolValue {
                collected.clips += clipFiles(in: url).filter { seen.insert($0.standardizedFileURL.path).inserted }
                do {
                    found = try PhotoFolder(url).photoFiles()
                } catch {
                    collected.missing.append((input, "cannot be read"))
                    continue
                }
            } else {
                found = [url]
            }
            for file in found where seen.insert(file.standardizedFileURL.path).inserted {
                collected.files.append(file)
            }
        }
        return collected
    }
}
