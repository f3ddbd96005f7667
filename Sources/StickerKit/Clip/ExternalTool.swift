import Dispatch
import Foundation
import Synchronization

/// An executable found on PATH (ffmpeg, ffprobe). Clips are decoded and WebM encoded by running
/// Debian's `ffmpeg` as a child process, through Foundation's `Process`: it is already linked, so
/// it costs no build time (swift-subprocess 1.0.2 would add two packages, swift-system among them,
/// to every clean build on these 2-core machines), and the two things that must not block a
/// cooperative thread — waiting for the exit and waiting on a pipe — are small here: the exit
/// through `terminationHandler` (`ChildExit`), the pipe through a one-shot readability or
/// writeability handler (`PipeEnd`), both bridged with a continuation. Nothing in this folder
/// blocks a thread of the pool on ffmpeg.
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

    /// Starts the tool with its standard streams connected as given (standard error to `log`).
    /// Its end is awaited through the returned `ChildExit`, never by blocking a thread.
    func start(_ arguments: [String], input: Any, output: Any, log: ErrorLog) throws(ClipError) -> (Process, ChildExit) {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = log.handle
        let exit = ChildExit()
        // Set before `run()`: a tool that ends at once must still be seen ending.
        process.terminationHandler = { ended in exit.ended(status: ended.terminationStatus) }
        do { try process.run() } catch { throw .toolMissing(name) }
        return (process, exit)
    }

    /// Runs the tool to the end, returning its standard output (small outputs only: ffprobe's JSON).
    /// Both outputs go to unlinked temporary files, read once it has exited: a chatty tool never
    /// blocks on a full pipe, and nothing waits on a pipe. Cancelling kills the tool.
    func run(_ arguments: [String]) async throws(ClipError) -> (status: Int32, output: Data, errors: String) {
        let output = ErrorLog(), log = ErrorLog()
        let (process, exit) = try start(arguments, input: FileHandle.nullDevice, output: output.handle, log: log)
        let pid = process.processIdentifier
        let status = await withTaskCancellationHandler { await exit.status() } onCancel: { kill(pid, SIGKILL) }
        return (status, output.data(), log.text())
    }
}

/// A child process's end, awaited: its `terminationHandler` (Foundation's own thread) records the
/// status and resumes whoever waits. Sendable through its Mutex.
final class ChildExit: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }
    private let state = Mutex(State())

    func ended(status: Int32) {
        let waiters = state.withLock { state in
            state.status = status
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    /// Whether the process has ended.
    var hasEnded: Bool { state.withLock { $0.status != nil } }

    /// The exit status (or the signal's number), once the process has ended.
    func status() async -> Int32 {
        await withCheckedContinuation { continuation in
            let known: Int32? = state.withLock { state in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}

/// Our end of a pipe to a child process, made non-blocking: reads and writes move what the pipe
/// takes at once, and when it takes nothing the task awaits readiness — a dispatch source on the
/// descriptor, resumed only while a task waits and suspended by its own event handler, resumes
/// it through a continuation. So the pipe's 64 KB stays the only buffer (ffmpeg waits while we
/// work: back-pressure, memory bounded), and no pool thread sits in read(2) or write(2). A child
/// that dies makes the pipe ready (end of file, or EPIPE), so a kill always ends the wait.
///
/// Not FileHandle's readabilityHandler: each setting makes a new source, stored after it is
/// resumed, so a handler that clears itself can miss its own source and later cancel the next
/// waiter's (a lost wake-up, seen under load with 1080p frames). Owned by one task (the reader's
/// or the encoder's), so one wait at a time.
final class PipeEnd {
    let handle: FileHandle
    private let source: any DispatchSourceProtocol
    private let waiter = Waiter()
    private var closed = false

    /// The continuation of the task waiting for readiness, if any. Sendable through its Mutex.
    private final class Waiter: Sendable {
        let slot = Mutex<CheckedContinuation<Void, Never>?>(nil)
    }

    init(_ handle: FileHandle, reading: Bool) {
        self.handle = handle
        let fd = handle.fileDescriptor
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        // No queue of ours: the source's handler runs on a global queue, off the cooperative pool;
        // it only suspends the source and resumes the waiting task.
        source = reading ? DispatchSource.makeReadSource(fileDescriptor: fd) : DispatchSource.makeWriteSource(fileDescriptor: fd)
        let waiter = waiter
        // Weakly: the source holds its handler, which must not hold the source.
        let sourceObject = source as AnyObject
        source.setEventHandler { [weak sourceObject] in
            // Until the next wait: a ready pipe would otherwise fire again and again.
            (sourceObject as? any DispatchSourceProtocol)?.suspend()
            waiter.slot.withLock { $0.take() }?.resume()
        }
        // Created inactive (suspended): `ready()` resumes it for each wait.
    }

    deinit { close() }

    /// Stops watching the descriptor (before it is closed: dispatch must not watch a closed one).
    func close() {
        guard !closed else { return }
        closed = true
        source.cancel()
        // A source is released resumed: suspended now (between waits), it is resumed once to let it go.
        source.resume()
    }

    /// Stops watching, then closes the descriptor (the child sees the end of its input).
    func closeHandle() {
        close()
        try? handle.close()
    }

    /// Fills `count` bytes; fewer only at the end of the stream (or on an error).
    func read(count: Int) async -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { Foundation.read(handle.fileDescriptor, $0.baseAddress! + filled, count - filled) }
            if n > 0 { filled += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !closed { await ready(); continue }
            break  // 0: end of file; another error: the stream is over for us
        }
        if filled < count { bytes.removeSubrange(filled...) }
        return bytes
    }

    /// Writes all of `bytes`; false when the reader has gone (EPIPE) or another error stops it.
    func write(_ bytes: [UInt8]) async -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(handle.fileDescriptor, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && !closed { await ready(); continue }
            return false
        }
        return true
    }

    /// Suspends until the pipe can be read (or written) without blocking.
    private func ready() async {
        let waiter = waiter, source = source
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiter.slot.withLock { $0 = continuation }
            source.resume()
        }
    }
}

/// A child process's standard error (or a small standard output), kept in an unlinked temporary
/// file: read once it has exited.
final class ErrorLog {
    let handle: FileHandle

    init() {
        let path = FileManager.default.temporaryDirectory.appending(path: "stickers-ffmpeg-\(getpid())-\(UUID().uuidString).log").path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        unlink(path)  // Gone from the folder at once: nothing left behind, whatever happens.
        handle = fd >= 0 ? FileHandle(fileDescriptor: fd, closeOnDealloc: true) : FileHandle.nullDevice
    }

    /// Everything written.
    func data() -> Data {
        guard (try? handle.seek(toOffset: 0)) != nil, let data = try? handle.readToEnd() else { return Data() }
        return data
    }

    /// The last lines written, trimmed (the cause is at the end).
    func text(maximumLength: Int = 400) -> String {
        let text = String(decoding: data(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return String(text.suffix(maximumLength)).split(whereSeparator: \.isNewline).joined(separator: "; ")
    }
}
