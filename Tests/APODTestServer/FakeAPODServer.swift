import Foundation
import Hummingbird
import Logging

/// A local stand-in for NASA's APOD API, on 127.0.0.1 and a port the system picks.
///
///     try await FakeAPODServer.withRunning { server in
///         await server.state.enqueueAPI(.status(500), .normal)
///         … APODConfiguration(baseURL: server.apiURL) …
///     }
public struct FakeAPODServer: Sendable {
    public let port: Int
    /// The script and the record of requests.
    public let state: FakeAPODState

    public var origin: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// What a client uses as its base URL.
    public var apiURL: URL { origin.appending(path: "planetary/apod") }

    /// Runs `body` with a fresh server and stops the server afterwards.
    public static func withRunning<T>(_ body: (FakeAPODServer) async throws -> T) async throws -> T {
        let state = FakeAPODState()
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        // Stopped by cancellation, which Hummingbird reports as errors: only the critical ones matter here.
        let app = makeApplication(state: state, host: "127.0.0.1", port: 0, logLevel: .critical) { port in
            portContinuation.yield(port)
        }
        let server = Task { try await app.runService(gracefulShutdownSignals: []) }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return try await body(FakeAPODServer(port: port, state: state))
    }

    /// Runs a server until SIGINT/SIGTERM (the `fake-apod` executable).
    public static func run(host: String, port: Int, failingDays: Set<String> = [],
                           onReady: @escaping @Sendable (FakeAPODServer) -> Void) async throws {
        let state = FakeAPODState()
        await state.setFailingDays(failingDays)
        let app = makeApplication(state: state, host: host, port: port, logLevel: .warning) { port in
            onReady(FakeAPODServer(port: port, state: state))
        }
        try await app.runService()
    }

    static func makeApplication(
        state: FakeAPODState, host: String, port: Int, logLevel: Logger.Level,
        onRunning: @escaping @Sendable (Int) -> Void
    ) -> some ApplicationProtocol {
        var logger = Logger(label: "fake-apod")
        logger.logLevel = logLevel
        return Application(
            router: FakeAPODRoutes.router(state: state),
            configuration: .init(address: .hostname(host, port: port), serverName: "fake-apod"),
            onServerRunning: { channel in onRunning(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }
}
