import AtomicFiles
import Foundation
import StickerApp
import StickerKit

/// Private temporary folders in which downloads are built (a pack is written to a file there,
/// read back, and the folder removed). Named `stickers-web-PID-UUID`, like AtomicFileWriter's
/// temporaries, so what a killed or hard-stopped server left behind can be told from the folders of
/// a server still running, and removed.
public enum ScratchFolder {
    static let prefix = "stickers-web-"

    /// A new folder's address, of this process (not yet created).
    static func newURL() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString)", isDirectory: true)
    }

    /// Packs for downloads are built in these folders.
    public static let packFolders = PackFolders(newFolder: newURL)

    /// Removes the folders of processes that no longer run (`serve` calls it as it starts).
    public static func removeLeftovers() {
        remove { !AtomicFileWriter.isRunning($0) }
    }

    /// Removes this process's folders: for a stop that cannot wait for the downloads being built.
    public static func removeOwn() {
        let own = getpid()
        remove { $0 == own }
    }

    private static func remove(where matches: (pid_t) -> Bool) {
        let temporary = FileManager.default.temporaryDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = processID(name), matches(pid) else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    /// The PID in `stickers-web-PID-UUID`; nil for any other name (folders of older versions,
    /// named `stickers-web-UUID`, are left alone: their owner cannot be told).
    static func processID(_ name: String) -> pid_t? {
        let rest = name.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), UUID(uuidString: String(rest[rest.index(after: dash)...])) != nil,
              let pid = pid_t(rest[..<dash]), pid > 0 else { return nil }
        return pid
    }
}
