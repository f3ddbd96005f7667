import Dispatch
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
