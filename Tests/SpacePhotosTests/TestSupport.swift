import APODTestServer
import Foundation
import SpacePhotos
import TestSupport

/// Collects what the client logs and how long it was told to sleep, so retries cost no time.
final class Recorder: Sendable {
    private let state = Locked<(sleeps: [Duration], log: [String])>(([], []))

    var sleeps: [Duration] { state.withLock { $0.sleeps } }
    var log: [String] { state.withLock { $0.log } }

    func sleep(_ duration: Duration) async throws {
        state.withLock { $0.sleeps.append(duration) }
        try Task.checkCancellation()
    }

    func record(_ line: String) {
        state.withLock { $0.log.append(line) }
    }
}

extension FakeAPODServer {
    /// A client of this server whose waits are recorded, not slept.
    func client(
        recorder: Recorder = Recorder(),
        maxAttempts: Int = 3,
        requestTimeout: Duration = .seconds(120),
        maxRetryAfter: Duration = .seconds(30)
    ) -> APODClient {
        APODClient(configuration: APODConfiguration(
            baseURL: apiURL,
            apiKey: "test-key",
            environment: [:],
            // Generous: this process's other tests keep both cores busy (the network, clips), and an
            // in-process server answers only when the cooperative pool gets to it.
            connectTimeout: .seconds(120),
            requestTimeout: requestTimeout,
            retry: RetryPolicy(
                maxAttempts: maxAttempts, initialBackoff: .milliseconds(100), maxRetryAfter: maxRetryAfter,
                sleep: { try await recorder.sleep($0) }),
            log: { recorder.record($0) }
        ))
    }
}

/// Waits (yielding, without a clock) until `condition` holds; for "the server has seen the request".
func eventually(_ condition: () async -> Bool) async {
    while !(await condition()) {
        try? await Task.sleep(for: .milliseconds(5))
    }
}
