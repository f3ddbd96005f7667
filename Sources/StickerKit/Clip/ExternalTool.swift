import Foundation
import Synchronization

/// An executable found on PATH (ffmpeg, ffprobe). Clips are decoded and WebM encoded by running
/// Debian's `ffmpeg` as a child process, through Foundation's `Process`: it is already linked, so
/// it costs no build time (swift-subprocess 1.0.2 would add two packages, swift-system among them,
/// to every clean build on these 2-core machines), and the two things that must not block a
/// cooperative thread — waiting for the exit and waiting on a pipe — are small here: the exit
/// through `terminationHandler` (`ChildExit`), the pipe through a thread of its own per call
/// (`PipeEnd`), both bridged with a continuation. Nothing in this folder blocks a thread of the
/// pool on ffmpeg, and nothing uses dispatch.
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

/// Our end of a pipe to a child process. Each read or write is done by a thread of its own,
/// started for that call, which blocks in read(2) or write(2) until the call's bytes have moved
/// (or the stream ends), then resumes the awaiting task through a continuation. So no thread of
/// the cooperative pool ever waits on ffmpeg, and the pipe's 64 KB stays the only buffer: nothing
/// is read before the task asks for its next frame (ffmpeg waits while we work: back-pressure,
/// memory bounded). A child that dies (cancellation kills it) ends the blocked call at once: end
/// of file for a read, EPIPE for a write (SIGPIPE is ignored, see `WebMEncoder`).
///
/// Why a thread that blocks, rather than readiness events: the readiness tool at hand, a dispatch
/// source on a non-blocking descriptor (what this was until 2026-11-26), makes libdispatch's own
/// manager thread die under TSan (a SEGV in `_dispatch_event_loop_drain`, 2 to 3 runs in 5 of a
/// 60-line program with nothing of ours in it), which kept the clip suites out of the TSan run;
/// an epoll loop of our own would be a thread as well, plus a registry to own. A thread of ours
/// blocking in read(2) is the honest tool for waiting on another process: it waits exactly as
/// long as ffmpeg takes, holds nothing else, and ends with the call. One per call rather than one
/// per pipe: a call moves a whole frame (hundreds of KB or more, at most about 30 a second), so
/// starting a thread (tens of microseconds) is noise beside it, and nothing has to be handed from
/// call to call (no queue, lock or condition to own). Owned by one task (the reader's or the
/// encoder's), so one call at a time; the descriptor is closed only between calls.
final class PipeEnd {
    private let fd: Int32
    private var closed = false

    init(_ handle: FileHandle, reading: Bool) {
        // A descriptor of our own, blocking, closed by `close()` alone (the handle's goes now).
        fd = dup(handle.fileDescriptor)
        try? handle.close()
        if fd >= 0 { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
    }

    deinit { close() }

    /// Closes our end (the child sees the end of its input, or a broken pipe). Never during a
    /// call: the owning task is suspended in it until its thread is done with the descriptor.
    func close() {
        guard !closed else { return }
        closed = true
        if fd >= 0 { _ = Foundation.close(fd) }
    }

    /// Closes our end (the child sees the end of its input).
    func closeHandle() {
        close()
    }

    /// Fills `count` bytes; fewer only at the end of the stream (or on an error).
    func read(count: Int) async -> [UInt8] {
        guard !closed, fd >= 0, count > 0 else { return [] }
        let fd = fd
        return await Self.onThreadOfItsOwn { Self.readFully(fd, count: count) } ?? []
    }

    /// Writes all of `bytes`; false when the reader has gone (EPIPE) or another error stops it.
    func write(_ bytes: [UInt8]) async -> Bool {
        guard !closed, fd >= 0 else { return false }
        let fd = fd
        return await Self.onThreadOfItsOwn { Self.writeFully(fd, bytes) } ?? false
    }

    /// Where a call's thread leaves its result for the awaiting task.
    private final class Handoff<T: Sendable>: Sendable {
        let result = Mutex<T?>(nil)
    }

    /// Runs `work` (blocking system calls) on a new thread, not the pool's, and returns its result
    /// (always there once the thread has resumed the task).
    ///
    /// The result goes through a Mutex rather than `resume(returning:)`: the same value, but
    /// ThreadSanitizer sees the Mutex's release and acquire (their fast paths are inlined into this
    /// module), while the runtime's handoff of a continuation resumed before its task has
    /// suspended is invisible to it — it reported the frame's bytes, written by the thread and
    /// read by the task after the resume, as a race (ClipServiceTests under TSan).
    private static func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T? {
        let handoff = Handoff<T>()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread {
                let value = work()
                handoff.result.withLock { $0 = value }
                continuation.resume()
            }
            thread.name = "stickers-pipe"
            thread.start()
        }
        return handoff.result.withLock { $0.take() }
    }

    private static func readFully(_ fd: Int32, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress! + filled, count - filled) }
            if n > 0 { filled += n; continue }
            if n < 0 && errno == EINTR { continue }
            break  // 0: end of file; an error: the stream is over for us
        }
        if filled < count { bytes.removeSubrange(filled...) }
        return bytes
    }

    private static func writeFully(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n > 0 { done += n; continue }
            if n < 0 && errno == EINTR { continue }
            return false  // EPIPE: ffmpeg has gone; another error stops us too
        }
        return true
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

    /// The last lines written, trimmed (the cause is at the end), without ffmpeg's context
    /// prefixes (`[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55ebe75e8000] `: a demuxer's names and an address).
    func text(maximumLength: Int = 400) -> String { Self.readable(String(decoding: data(), as: UTF8.self), maximumLength: maximumLength) }

    static func readable(_ log: String, maximumLength: Int = 400) -> String {
        let text = log.replacing(#/\[[^\]\n]* @ 0x[0-9a-fA-F]+\] /#, with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        var lines = String(text.suffix(maximumLength)).split(whereSeparator: \.isNewline)
        // A line cut by the length limit is dropped, unless it is the only one.
        if text.count > maximumLength, lines.count > 1 { lines.removeFirst() }
        return lines.joined(separator: "; ")
    }
}
