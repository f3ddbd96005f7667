import Dispatch
import Synchronization
import Foundation

/// Turns Ctrl-C (SIGINT) and SIGTERM into cancellation of a task, so long work stops cleanly and
/// leaves no partial file behind.
///
/// Why Dispatch: a POSIX signal handler may only call async-signal-safe functions, so it cannot
/// cancel a Swift task itself. Dispatch's signal source is the standard safe bridge from a signal
/// to ordinary code (swift-service-lifecycle's UnixSignals is built on it too); Swift concurrency
/// has no signal API of its own. The handler does nothing but cancel the task.
final class InterruptHandler {
    private var sources: [any DispatchSourceSignal] = []

    init(cancelling task: Task<Void, Never>) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN) // Let the source, not the default action, handle it.
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
            source.setEventHandler {
                // Said at once: the work may take a moment to wind down (and scripts can wait for it).
                printError("interrupted: stopping")
                task.cancel()
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Restores the default signal actions: a second Ctrl-C after the work ended stops the process.
    func stop() {
        for source in sources { source.cancel() }
        sources.removeAll()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// `serve`'s SIGINT and SIGTERM: the first asks for an orderly stop and arms a hard deadline; a
/// second signal, or the deadline, ends the process at once with status 130 (interrupted).
///
/// The handlers and the deadline run on Dispatch's global queue rather than on the main actor or
/// in a task: they must fire even when the main thread or every thread of the cooperative pool is
/// busy (the engine keeps them so), which neither a main-actor job nor `Task.sleep` can promise.
/// What is cut short this way is safe to cut: files are written to a temporary and renamed
/// (AtomicFileWriter; the next write to the folder removes a killed writer's temporaries) and the
/// library's writes are SQLite transactions, rolled back when the process ends mid-way.
///
/// Nonisolated: in this main-actor module its handlers would otherwise be main-actor closures,
/// and the runtime stops a process that runs one on another thread.
nonisolated final class StopSignals {
    /// From the first signal to the forced exit: the "stopped within 5 s", with room for
    /// the process's own teardown.
    static let deadline: DispatchTimeInterval = .milliseconds(4_500)

    private var sources: [any DispatchSourceProtocol] = []
    private let registered: AsyncStream<Void>

    /// Installs the handlers and returns once they are armed: Dispatch registers a source
    /// asynchronously, and a signal arriving before that (the default action already replaced)
    /// would be lost — a server that never stops.
    /// - Parameters:
    ///   - stop: starts the orderly stop (on the main actor; must return at once).
    ///   - cleanUp: removes what a forced exit would leave half-made; runs on any thread.
    static func install(stop: @escaping @MainActor @Sendable () -> Void,
                        cleanUp: @escaping @Sendable () -> Void) async -> StopSignals {
        let signals = StopSignals(stop: stop, cleanUp: cleanUp)
        var armed = 0
        for await _ in signals.registered {
            armed += 1
            if armed == 2 { break }
        }
        return signals
    }

    private init(stop: @escaping @MainActor @Sendable () -> Void, cleanUp: @escaping @Sendable () -> Void) {
        let received = SignalCount()
        let forcedExit: @Sendable (String) -> Void = { reason in
            printError("\(reason): exiting now")
            cleanUp()
            // _exit, not exit: other threads are still running, and exit's teardown of the
            // runtime under their feet could crash; nothing is buffered (standard error is not).
            _exit(130)  // interrupted, as `make` and `catalog` say it
        }
        // Resumed now and set for "never": a source must not be released suspended, and the first
        // signal only has to set its deadline.
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { forcedExit("not stopped within 4.5 s") }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
        let (registered, announce) = AsyncStream.makeStream(of: Void.self)
        self.registered = registered
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN) // Let the source, not the default action, handle it.
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setRegistrationHandler { announce.yield() }
            source.setEventHandler {
                guard received.increment() == 1 else { return forcedExit("second interrupt") }
                printError("stopping: finishing the requests in flight (send the signal again to exit at once)")
                timer.schedule(deadline: .now() + Self.deadline)
                Task { @MainActor in stop() }
            }
            source.resume()
            sources.append(source)
        }
        sources.append(timer)
    }

    /// The orderly stop ended: the deadline is disarmed, the default signal actions restored.
    func finish() {
        for source in sources { source.cancel() }
        sources.removeAll()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// How many stop signals have arrived (the handlers may run on two threads at once).
nonisolated private final class SignalCount: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one; returns the new count.
    func increment() -> Int {
        count.add(1, ordering: .sequentiallyConsistent).newValue
    }
}
