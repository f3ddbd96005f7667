import ArgumentParser

/// The CLI's exit statuses (sysexits.h, and the shell's 128 + SIGINT), stable: scripts depend on
/// them. Nonisolated: the signal handlers that end `serve` at once read `interrupted` off the main actor.
nonisolated enum ExitStatus {
    /// Bad command line.
    static let usage = ExitCode(64)
    /// The input data is unusable (not an image, no subject, nothing valid).
    static let dataError = ExitCode(65)
    /// A needed resource (the cut-out model) cannot be had.
    static let unavailable = ExitCode(69)
    /// Reading or writing a file failed.
    static let ioError = ExitCode(74)
    /// Interrupted (Ctrl-C, SIGTERM): stopped cleanly, no partial file left.
    static let interrupted = ExitCode(130)
}

/// Prints `message` to standard error as `stickers: message` and exits with `status`.
func fail(_ message: String, _ status: ExitCode) -> ExitCode {
    printError(message)
    return status
}

nonisolated func printError(_ message: String) {
    var stderr = StandardError()
    print("stickers: \(message)", to: &stderr)
}

nonisolated struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

import Foundation
