import AtomicFiles
import Foundation
import StickerApp
import StickerKit

/// Private temporary folders in which downloads are built (a pack is written to a file there,
/// read back, and the folder removed). Named `stickers-web-PID-UUID` (`ProcessOwnedName`), so what
/// a killed or hard-stopped server left behind can be told from the folders of a server still
/// running, and removed.
public enum ScratchFolder {
    static let prefix = "stickers-web-"

    /// A new folder's address, of this process (not yet created).
    static func newURL() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(ProcessOwnedName.make(prefix), isDirectory: true)
    }

    /// Packs for downloads are built in these folders.
    public static let packFolders = PackFolders(newFolder: newURL)

    /// Removes the folders of processes that no longer run (`serve` calls it as it starts).
    /// Folders of older versions, named `stickers-web-UUID`, are left alone: their owner cannot be told.
    public static func removeLeftovers() {
        ProcessOwnedName.removeLeftovers(in: FileManager.default.temporaryDirectory, prefix: prefix)
    }

    /// Removes this process's folders: for a stop that cannot wait for the downloads being built.
    public static func removeOwn() {
        let temporary = FileManager.default.temporaryDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        for name in names where ProcessOwnedName.processID(of: name, prefix: prefix) == getpid() {
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }
}
