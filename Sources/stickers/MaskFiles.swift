import AtomicFiles
import Foundation
import Raster
import StickerKit

/// `--mask DIR` for a clip: each used frame's alpha as DIR/NNNN.png, whole or not at all.
///
/// The masks are written into a hidden `DIR/.masks.PID.UUID.partial` while the sticker is made.
/// Then `moveIn` renames them into DIR, keeping a hard link to each file it replaces; the sticker is
/// renamed into place; and `finish` removes the masks of the run before that this sticker does not
/// use — only those that run's list (`DIR/.stickers-masks`) names, and only files — and lists this
/// run's. When the sticker fails, or a mask or the sticker cannot be moved in, `rollBack` puts back
/// every file replaced: DIR is as it was. The commit holds an exclusive `flock` on DIR, so two runs
/// into one folder commit one after the other. A killed run's hidden folder goes at the next run
/// (`AtomicFileWriter.removeLeftovers`); a kill between `moveIn` and `finish` leaves the new masks
/// in DIR beside the earlier run's others. DIR and its parents go again where this run made them
/// and it fails.
actor MaskFiles {
    let folder: URL?
    /// The folders this run made, innermost first.
    let madeFolders: [URL]
    /// The sticker's own path: never removed as an earlier mask.
    let output: URL?
    /// Where the masks are written until the sticker is made.
    private let staging: URL?
    private var names: [String] = []
    /// The masks moved into DIR, and whether each replaced a file (linked under `replaced`).
    private var moved: [(name: String, replacedOne: Bool)] = []
    /// DIR, open and locked from `moveIn` to `finish` or `rollBack` (-1: not locked).
    private var lock: Int32 = -1

    /// The list of the masks the last run that succeeded wrote into DIR.
    static let listName = ".stickers-masks"

    init(folder: URL?, madeFolders: [URL], output: URL? = nil) {
        self.folder = folder
        self.madeFolders = madeFolders
        self.output = output
        staging = folder.map { AtomicFileWriter.temporaryURL(for: $0.appending(path: "masks")) }
    }

    private var replaced: URL? { staging?.appending(path: "replaced") }

    func write(_ alpha: Mask, index: Int) throws {
        guard let staging else { return }
        if names.isEmpty { try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false) }
        let name = String(format: "%04d.png", index)
        try AtomicFileWriter.write(try ImageEncoder.png(alpha), to: staging.appending(path: name))
        names.append(name)
    }

    /// Moves the masks into DIR. Nothing moves when a mask's name is taken by something other than
    /// a file (a folder of the user's); on any other failure the masks moved so far stay moved
    /// (`rollBack` undoes them).
    func moveIn() throws {
        guard let folder, let staging, let replaced, !names.isEmpty else { return }
        // An exclusive lock on DIR itself across processes: flock(2) is the one tool for that (no
        // Swift lock reaches another process); it goes with the descriptor, even when killed.
        lock = open(folder.path, O_RDONLY | O_DIRECTORY)
        if lock >= 0 { _ = flock(lock, LOCK_EX) }
        let kinds = names.map { Self.kind(of: folder.appending(path: $0)) }
        if let taken = kinds.firstIndex(of: .other) {
            throw MaskFolderError(path: folder.appending(path: names[taken]).path, reason: "something other than a file has the mask's name")
        }
        try FileManager.default.createDirectory(at: replaced, withIntermediateDirectories: false)
        for (name, kind) in zip(names, kinds) {
            let target = folder.appending(path: name).path, kept = replaced.appending(path: name).path
            let replacesOne = kind == .file
            if replacesOne && link(target, kept) != 0 { throw MaskFolderError(path: target, errno: errno) }
            guard rename(staging.appending(path: name).path, target) == 0 else {
                let failure = MaskFolderError(path: target, errno: errno)
                if replacesOne { unlink(kept) }
                throw failure
            }
            moved.append((name, replacesOne))
        }
    }

    /// After the sticker is in place: the earlier run's masks this one does not use go, this run's
    /// list is written, the hidden folder goes.
    func finish() {
        defer { unlockAndClear() }
        guard let folder, !names.isEmpty else { return }
        let list = folder.appending(path: Self.listName)
        let earlier = ((try? String(contentsOf: list, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        let used = Set(names)
        for name in earlier where !used.contains(name) && Self.isMaskName(name) {
            let url = folder.appending(path: name)
            guard url.standardizedFileURL != output?.standardizedFileURL, Self.kind(of: url) == .file else { continue }
            unlink(url.path)
        }
        try? AtomicFileWriter.write(Data((names.joined(separator: "\n") + "\n").utf8), to: list)
    }

    /// Puts back every file `moveIn` replaced (and removes the masks it added); then as `removeAll`.
    func rollBack() {
        if let folder, let replaced {
            for (name, replacedOne) in moved.reversed() {
                let target = folder.appending(path: name).path
                if replacedOne { rename(replaced.appending(path: name).path, target) } else { unlink(target) }
            }
        }
        moved.removeAll()
        removeAll()
    }

    /// The hidden folder goes, and the folders this run made where empty.
    func removeAll() {
        unlockAndClear()
        // rmdir(2): only while empty (nothing of anyone else's is removed).
        for made in madeFolders where rmdir(made.path) != 0 { break }
    }

    private func unlockAndClear() {
        if let staging { try? FileManager.default.removeItem(at: staging) }
        names.removeAll()
        if lock >= 0 { close(lock); lock = -1 }
    }

    /// Whether `name` is a frame's mask as `write` names them: four or more digits, `.png`.
    static func isMaskName(_ name: String) -> Bool {
        let stem = name.dropLast(4)
        return name.hasSuffix(".png") && stem.count >= 4 && stem.allSatisfy { $0.isASCII && $0.isNumber }
    }

    enum Kind { case none, file, other }

    /// What is at `url`, not following a symbolic link (a link is `other`: never replaced or removed).
    static func kind(of url: URL) -> Kind {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return .none }
        return status.st_mode & S_IFMT == S_IFREG ? .file : .other
    }
}

/// A mask that cannot be moved into the `--mask` folder.
struct MaskFolderError: Error, CustomStringConvertible {
    let path: String
    let reason: String

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    init(path: String, errno code: Int32) {
        self.init(path: path, reason: String(cString: strerror(code)))
    }

    var description: String { "\(path): \(reason)" }
}
