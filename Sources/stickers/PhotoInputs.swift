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
                // One walk for both: files named as clips (videos, GIFs: the still decoder reads no
                // GIF) go to the clips; an animated PNG is found as a photo and moved to the clips
                // by its bytes (`MakeCommand`).
                let named: [URL]
                do {
                    named = try PhotoFolder(url).photoFiles(clips: true)
                } catch {
                    collected.missing.append((input, "cannot be read"))
                    continue
                }
                collected.clips += named.filter { !PhotoFolder.isPhotoName($0) && seen.insert($0.standardizedFileURL.path).inserted }
                found = named.filter(PhotoFolder.isPhotoName)
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
