import AtomicFiles
import Foundation
import Synchronization

/// Which cache entries running processes use, so that eviction in one process (`make`'s trim,
/// `cache clear`) never removes an entry another process is still reading: `make` packs from its
/// entries' files at the end of a batch, `serve` copies them into the library and restyles from
/// them.
///
/// Each process keeps a registry file, `.readers/PID-UUID`, locked (flock, exclusive) for as long
/// as it uses the cache, and appends to it the name of every entry before it looks that entry up.
/// An evictor holds the cache's `.lock` exclusively while it reads the live registries (those whose
/// lock is held: a killed process's lock is gone with it, so its registry is removed) and removes
/// entries; a lookup holds `.lock` shared while it finds its entry. So either the reader found the
/// entry before the evictor looked, registered, and the entry is kept; or the evictor had removed
/// it before the reader looked, and the reader makes it again. Nothing else is serialised:
/// readers share the lock, writers rename whole entries into place and need none.
///
/// flock(2) blocks the calling thread; it is held only around a few stat/rename/unlink calls and no
/// suspension point, and there is no asynchronous cross-process lock to use instead.
nonisolated final class CacheReaders: Sendable {
    static let folderName = ".readers"
    static let lockName = ".lock"
    /// A registry being made (see `register`): `.new-PID-UUID`.
    static let newPrefix = ".new-"

    private let folder: URL
    private struct Registry {
        var descriptor: Int32 = -1
        var url: URL?
        var names: Set<String> = []
        var unavailable = false
    }
    private let registry = Mutex(Registry())

    init(cacheFolder: URL) {
        folder = cacheFolder
    }

    deinit {
        registry.withLock { registry in
            guard registry.descriptor >= 0 else { return }
            if let url = registry.url { unlink(url.path) }
            close(registry.descriptor)
        }
    }

    /// Records that this process uses entry `name` (before it looks it up). A cache that cannot
    /// be written to (read-only) gets no registry: nothing can be evicted from it either.
    func register(_ name: String) {
        registry.withLock { registry in
            guard !registry.names.contains(name), !registry.unavailable else { return }
            if registry.descriptor < 0 {
                // Made under a hidden name and locked before it is renamed into view: an evictor
                // never sees it unlocked (and takes it for a dead process's).
                let readers = folder.appending(path: Self.folderName, directoryHint: .isDirectory)
                let hidden = readers.appending(path: ProcessOwnedName.make(Self.newPrefix))
                let url = readers.appending(path: ProcessOwnedName.make(""))
                try? FileManager.default.createDirectory(at: readers, withIntermediateDirectories: true)
                let descriptor = open(hidden.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { registry.unavailable = true; return }
                guard flock(descriptor, LOCK_EX) == 0, rename(hidden.path, url.path) == 0 else {
                    unlink(hidden.path)
                    close(descriptor)
                    registry.unavailable = true
                    return
                }
                registry.descriptor = descriptor
                registry.url = url
            }
            let line = Array("\(name)\n".utf8)
            // One write(2) with O_APPEND: a line is never interleaved or seen half by a reader that
            // reads after it returns.
            _ = line.withUnsafeBytes { write(registry.descriptor, $0.baseAddress, $0.count) }
            registry.names.insert(name)
        }
    }

    /// Runs `body` holding the cache's lock, shared (`exclusive == false`: finding an entry) or
    /// exclusive (evicting). Without a lock file (a read-only cache without one) it runs unlocked.
    static func withLock<T>(in folder: URL, exclusive: Bool, _ body: () throws -> T) rethrows -> T {
        let path = folder.appending(path: lockName).path
        var descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        if descriptor < 0 { descriptor = open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }  // closing releases the lock
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0, errno == EINTR {}
        return try body()
    }

    /// The entries live processes have registered (this one's included); registries of processes
    /// that no longer run are removed. Call it holding the lock exclusively.
    static func namesInUse(in folder: URL) -> Set<String> {
        let readers = folder.appending(path: folderName, directoryHint: .isDirectory)
        ProcessOwnedName.removeLeftovers(in: readers, prefix: newPrefix)
        guard let files = try? FileManager.default.contentsOfDirectory(atPath: readers.path) else { return [] }
        var names: Set<String> = []
        for file in files where !file.hasPrefix(".") {
            let url = readers.appending(path: file)
            let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            // A lock we can take is nobody's: its process has ended (or is ending).
            if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
                unlink(url.path)
                continue
            }
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            for line in data.split(separator: UInt8(ascii: "\n")) { names.insert(String(decoding: line, as: UTF8.self)) }
        }
        return names
    }
}
