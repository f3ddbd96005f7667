/// How often and how long to wait before asking a failing server again.
///
/// 5xx answers are retried with exponential backoff (with jitter, so the concurrent requests of a
/// batch do not retry in lockstep); a 429 is retried after the server's `Retry-After` when that is
/// at most `maxRetryAfter`. `sleep` is injectable so tests can record waits instead of waiting.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included (1 = never retry).
    public var maxAttempts: Int
    public var initialBackoff: Duration
    public var maxBackoff: Duration
    /// A server asking for a longer pause than this gets `rateLimited` at once.
    public var maxRetryAfter: Duration
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(
        maxAttempts: Int = 3,
        initialBackoff: Duration = .milliseconds(500),
        maxBackoff: Duration = .seconds(8),
        maxRetryAfter: Duration = .seconds(30),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.maxRetryAfter = maxRetryAfter
        self.sleep = sleep
    }

    /// The pause after failed attempt number `attempt` (1-based): between half and all of
    /// `initialBackoff · 2^(attempt-1)`, capped at `maxBackoff`.
    public func backoff(afterAttempt attempt: Int) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let full = min(initialBackoff * (1 << exponent), maxBackoff)
        return full * Double.random(in: 0.5...1.0)
    }
}
