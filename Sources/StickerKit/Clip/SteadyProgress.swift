import Synchronization

/// A count of frames done, reported only when it passes every count reported before: a `Mutex`
/// because the reports come from the pipeline's tasks.
final class SteadyProgress: Sendable {
    private let highest = Mutex(Int.min)
    private let forward: @Sendable (Int) -> Void

    init(_ forward: @escaping @Sendable (Int) -> Void) { self.forward = forward }

    func report(_ done: Int) {
        let passes = highest.withLock { highest in
            guard done > highest else { return false }
            highest = done
            return true
        }
        if passes { forward(done) }
    }
}
