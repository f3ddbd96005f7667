import Foundation

/// Names for temporary folders that say which process made them: `PREFIXPID-UUID`. A process
/// killed outright (`kill -9`) cannot remove its own temporaries; the next process that works in
/// the same place removes those whose owner no longer runs, and never one of a process still
/// running (another writer at work there). AtomicFileWriter's temporary files follow the same
/// rule with names of their own (`.NAME.PID.UUID.partial`).
///
/// A process id can be reused: a leftover whose id now names an unrelated running process is
/// kept until that process ends. That errs on the safe side (a late removal, never an early one).
public enum ProcessOwnedName {
    /// A new name of this process: `PREFIXPID-UUID`.
    public static func make(_ prefix: String) -> String {
        "\(prefix)\(getpid())-\(UUID().uuidString)"
    }

    /// The PID in `PREFIXPID-UUID`; nil for any other name.
    public static func processID(of name: String, prefix: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), UUID(uuidString: String(rest[rest.index(after: dash)...])) != nil,
              let pid = pid_t(rest[..<dash]), pid > 0 else { return nil }
        return pid
    }

    /// Whether `name` is `PREFIXPID-UUID` of a process that no longer runs.
    public static func isLeftover(_ name: String, prefix: String) -> Bool {
        guard let pid = processID(of: name, prefix: prefix) else { return false }
        return !AtomicFileWriter.isRunning(pid)
    }

    /// Removes the items of `folder` named `PREFIXPID-UUID` whose process no longer runs; returns
    /// how many were removed.
    @discardableResult
    public static func removeLeftovers(in folder: URL, prefix: String) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in names where isLeftover(name, prefix: prefix) {
            if (try? FileManager.default.removeItem(at: folder.appending(path: name))) != nil { removed += 1 }
        }
        return removed
    }
}
