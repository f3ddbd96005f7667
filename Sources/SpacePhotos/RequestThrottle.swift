import Foundation

/// Rate-limit state shared by all requests of one client.
///
/// When the server answers 429 with `Retry-After`, every request of the client (the concurrent
/// days of a batch included) holds back until then instead of each discovering the limit on its
/// own. It also remembers the server's last `X-RateLimit-Remaining`.
actor RequestThrottle {
    private var pausedUntil: ContinuousClock.Instant?
    private(set) var remaining: Int?

    /// How long a request must still wait before it is sent (zero when it may go now).
    func delayBeforeNextRequest() -> Duration {
        guard let pausedUntil else { return .zero }
        let left = pausedUntil - .now
        if left <= .zero {
            self.pausedUntil = nil
            return .zero
        }
        return left
    }

    /// Holds every request back for `duration` from now (never shortens an existing pause).
    func pause(for duration: Duration) {
        let until = ContinuousClock.now + duration
        if let pausedUntil, pausedUntil >= until { return }
        pausedUntil = until
    }

    func record(remaining: Int?) {
        if let remaining { self.remaining = remaining }
    }
}
