import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

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
    ///
    /// Stopped by a graceful shutdown that is awaited, as HummingbirdTesting's live framework does:
    /// cancelling the server instead leaves its open keep-alive connections to be torn down while
    /// the next test runs, and NIO then traps ("Deinited NIOAsyncWriter without calling finish()"),
    /// which a run of the tests one at a time under ThreadSanitizer showed.
    public static func withRunning<T: Sendable>(_ body: (FakeAPODServer) async throws -> T) async throws -> T {
        let state = FakeAPODState()
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = makeApplication(state: state, host: "127.0.0.1", port: 0, logLevel: .critical) { port in
            portContinuation.yield(port)
        }
        var logger = Logger(label: "fake-apod")
        logger.logLevel = .critical
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(FakeAPODServer(port: port, state: state)))
            } catch {
                result = .failure(error)
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
            return try result.get()
        }
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
