import Foundation

/// An executable found on PATH (ffmpeg, ffprobe). Clips are decoded and WebM encoded by running
/// Debian's `ffmpeg` as a child process, through Foundation's `Process`: it is already linked, so
/// it costs no build time (swift-subprocess would add a package and its build to every clean
/// build on these 2-core machines), and a pull-based reader over its pipe is all the streaming
/// we need.
struct ExternalTool: Sendable {
    let name: String
    let url: URL

    /// The executable `name` on PATH (`STICKERS_FFMPEG_DIR` first, so tests can hide or replace it).
    static func find(_ name: String) throws(ClipError) -> ExternalTool {
        let environment = ProcessInfo.processInfo.environment
        var folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        if let override = environment["STICKERS_FFMPEG_DIR"] { folders = [override] }
        for folder in folders where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: folder).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return ExternalTool(name: name, url: candidate) }
        }
        throw .toolMissing(name)
    }

    /// Runs the tool to the end, returning its standard output (small outputs only: ffprobe's JSON).
    /// Standard error goes to a temporary file, so a chatty tool can never block on a full pipe.
    @concurrent func run(_ arguments: [String]) async throws(ClipError) -> (status: Int32, output: Data, errors: String) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let log = ErrorLog()
        process.standardError = log.handle
        do { try process.run() } catch { throw .toolMissing(name) }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data, log.text())
    }
}

/// A child process's standard error, kept in an unlinked temporary file: read once it has exited.
final class ErrorLog {
    let handle: FileHandle

    init() {
        let path = FileManager.default.temporaryDirectory.appending(path: "stickers-ffmpeg-\(getpid())-\(UUID().uuidString).log").path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        unlink(path)  // Gone from the folder at once: nothing left behind, whatever happens.
        handle = fd >= 0 ? FileHandle(fileDescriptor: fd, closeOnDealloc: true) : FileHandle.nullDevice
    }

    /// The last lines written, trimmed (the cause is at the end).
    func text(maximumLength: Int = 400) -> String {
        guard (try? handle.seek(toOffset: 0)) != nil, let data = try? handle.readToEnd() else { return "" }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return String(text.suffix(maximumLength)).split(whereSeparator: \.isNewline).joined(separator: "; ")
    }
}
