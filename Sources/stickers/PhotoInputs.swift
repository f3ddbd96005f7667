import Foundation

/// Expands the command line's inputs into photo files: files as given, folders searched
/// recursively for image files (by extension, so a folder's README or licence file is not taken
/// for a broken photo). Hidden files and folders are skipped.
enum PhotoInputs {
    static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif", "png"]

    struct Collected {
        var files: [URL] = []
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
                let walker = manager.enumerator(at: url, includingPropertiesForKeys: [.isRegularFileKey],
                                                options: [.skipsHiddenFiles])
                var inFolder: [URL] = []
                while let next = walker?.nextObject() as? URL {
                    if imageExtensions.contains(next.pathExtension.lowercased()),
                       (try? next.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                        inFolder.append(next)
                    }
                }
                found = inFolder.sorted { $0.path.localizedStandardCompare($1.path) == .orderedAscending }
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
