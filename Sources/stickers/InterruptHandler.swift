import Dispatch
import Synchronization
import Foundation

/// SIGINT and SIGTERM handled by Dispatch signal sources, installed and *armed*.
///
/// Why Dispatch: a POSIX signal handler may only call async-signal-safe functions, so it cannot
/// cancel a Swift task itself. Dispatch's signal source is the standard safe bridge from a signal
/// to ordinary code (swift-service-lifecycle's UnixSignals is built on it too); Swift concurrency
/// has no signal API of its own. `arm` returns only once both sources are registered: Dispatch
/// registers them asynchronously, and a signal arriving before that (the default action already
/// replaced) would be lost — work that never stops.
///
/// Nonisolated: in this main-actor module its handler would otherwise be a main-actor closure,
/// and the runtime stops a process that runs one on another thread.
nonisolated final class TerminationSignals {
    private var sources: [any DispatchSourceSignal] = []

    static func arm(on queue: DispatchQueue, _ handler: @escaping () -> Void) async -> TerminationSignals {
        let signals = TerminationSignals()
        let (registered, announce) = AsyncStream.makeStream(of: Void.self)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN) // Let the source, not the default action, handle it.
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setRegistrationHandler { announce.yield() }
            source.setEventHandler(handler: handler)
            source.resume()
            signals.sources.append(source)
        }
        for await _ in registered.prefix(signals.sources.count) {}
        return signals
    }

    /// Restores the default signal actions: a second Ctrl-C after the work ended stops the process.
    func disarm() {
        for source in sources { source.cancel() }
        sources.removeAll()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

/// Turns Ctrl-C (SIGINT) and SIGTERM into cancellation of a task, so long work stops cleanly and
/// leaves no partial file behind. The handler does nothing but cancel the task.
final class InterruptHandler {
    private let signals: TerminationSignals

    init(cancelling task: Task<Void, Never>) async {
        signals = await TerminationSignals.arm(on: .main) {
            // Said at once: the work may take a moment to wind down (and scripts can wait for it).
            printError("interrupted: stopping")
            task.cancel()
        }
    }

    func stop() { signals.disarm() }
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

    private let signals: TerminationSignals
    private let timer: any DispatchSourceTimer

    /// Installs the handlers and returns once they are armed (see `TerminationSignals`).
    /// - Parameters:
    ///   - stop: starts the orderly stop (on the main actor; must return at once).
    ///   - cleanUp: removes what a forced exit would leave half-made; runs on any thread.
    static func install(stop: @escaping @MainActor @Sendable () -> Void,
                        cleanUp: @escaping @Sendable () -> Void) async -> StopSignals {
        let received = SignalCount()
        let forcedExit: @Sendable (String) -> Void = { reason in
            printError("\(reason): exiting now")
            cleanUp()
            // _exit, not exit: other threads are still running, and exit's teardown of the
            // runtime under their feet could crash; nothing is buffered (standard error is not).
            _exit(ExitStatus.interrupted.rawValue)  // as `make` and `catalog` say it
        }
        // Resumed now and set for "never": a source must not be released suspended, and the first
        // signal only has to set its deadline.
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.setEventHandler { forcedExit("not stopped within 4.5 s") }
        timer.schedule(deadline: .distantFuture)
        timer.resume()
        let signals = await TerminationSignals.arm(on: .global()) {
            guard received.increment() == 1 else { return forcedExit("second interrupt") }
            printError("stopping: finishing the requests in flight (send the signal again to exit at once)")
            timer.schedule(deadline: .now() + Self.deadline)
            Task { @MainActor in stop() }
        }
        return StopSignals(signals: signals, timer: timer)
    }

    private init(signals: TerminationSignals, timer: any DispatchSourceTimer) {
        self.signals = signals
        self.timer = timer
    }

    /// The orderly stop ended: the deadline is disarmed, the default signal actions restored.
    func finish() {
        timer.cancel()
        signals.disarm()
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
