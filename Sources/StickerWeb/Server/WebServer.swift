import Hummingbird
import Logging
import ServiceLifecycle

/// Runs the web app until `stop()` is called, then stops it in order:
///
/// 1. the sticker batch is cancelled at once (it ends at a photo boundary: finished photos are
///    recorded in the library, the photo being made is dropped) and no new batch starts;
/// 2. the listening socket closes, idle connections close, and requests in flight are answered —
///    their writes finish — for at most `grace`;
/// 3. requests still running then are cancelled, so their writes roll back (files are written to a
///    temporary and renamed, database writes are transactions);
/// 4. `run()` returns once the batch has ended and its results are recorded.
///
/// The hard deadline after which the process exits anyway is the caller's (`serve`): it must hold
/// even when every thread is busy, which nothing in here can promise.
public final class WebServer: Sendable {
    /// How long requests in flight may take to finish once a stop is asked for.
    public static let grace: Duration = .seconds(3)

    private let group: ServiceGroup
    private let services: WebServices

    public init(_ app: WebApp, grace: Duration = WebServer.grace, logger: Logger = Logger(label: "stickers.web")) {
        // No signals here: `serve` owns them (a second one must be able to end the process at once,
        // which ServiceGroup's signal handling cannot do).
        var configuration = ServiceGroupConfiguration(services: [app.application], logger: logger)
        configuration.maximumGracefulShutdownDuration = grace  // then escalated to cancellation
        self.group = ServiceGroup(configuration: configuration)
        self.services = app.services
    }

    /// Serves until stopped; returns when the server and the sticker batch have both ended.
    public func run() async throws {
        do {
            try await group.run()
        } catch {
            await services.stickers.stopProcessing()
            throw error
        }
        await services.stickers.stopProcessing()
    }

    /// Starts the orderly stop (see the type's comment); returns at once.
    public func stop() {
        let group = group, services = services
        Task { await services.stickers.stopProcessing() }
        Task { await group.triggerGracefulShutdown() }
    }
}
