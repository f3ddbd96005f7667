import Foundation
import Hummingbird
import Logging

/// The web app: the page and its assets, plus each tab's API, on one Hummingbird router.
public enum WebApplication {
    /// The router with every route; tests drive it through HummingbirdTesting.
    /// `capacity` counts the work in flight against `configuration.limits` (one is made if nil;
    /// tests pass their own to fill it).
    public static func router(configuration: WebConfiguration, sessions: WebSessions,
                              hosts: HostAllowList? = nil, capacity: ServerCapacity? = nil) -> Router<BasicRequestContext> {
        let capacity = capacity ?? ServerCapacity(limits: configuration.limits)
        let router = Router()
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: HostAllowListMiddleware(allowList: hosts ?? HostAllowList(configuration)))
        router.add(middleware: SameOriginMiddleware())
        router.add(middleware: RequestLimitsMiddleware(capacity: capacity))
        AssetRoutes().register(on: router)
        StickerRoutes(session: sessions.stickers, capacity: capacity).register(on: router)
        ColorRoutes(session: sessions.colors, capacity: capacity).register(on: router)
        SpaceRoutes(session: sessions.space).register(on: router)
        return router
    }

    /// The application bound to the configured host and port. `onListening` receives the port
    /// actually bound (useful with port 0).
    public static func make(
        configuration: WebConfiguration,
        sessions: WebSessions,
        capacity: ServerCapacity? = nil,
        logger: Logger = Logger(label: "stickers.web"),
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let hosts = HostAllowList(configuration)
        // A connection silent for idleSeconds — between requests, or in the middle of reading one —
        // is closed: a client cannot hold a connection open by saying nothing.
        let idleMilliseconds = Int64(configuration.limits.idleSeconds * 1000)
        return Application(
            router: router(configuration: configuration, sessions: sessions, hosts: hosts, capacity: capacity),
            server: .http1(configuration: .init(idleTimeout: .milliseconds(idleMilliseconds))),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                 serverName: "stickers"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                hosts.listening(on: port)
                await onListening(port)
            },
            logger: logger
        )
    }
}

/// The state behind each tab, one of each for the whole app (it serves one person).
public struct WebSessions: Sendable {
    public var stickers: StickerSession
    public var colors: ColorSession
    public var space: SpaceSession

    public init(stickers: StickerSession, colors: ColorSession, space: SpaceSession) {
        self.stickers = stickers
        self.colors = colors
        self.space = space
    }
}

extension HostAllowList {
    convenience init(_ configuration: WebConfiguration) {
        self.init(host: configuration.host, port: configuration.port, extraNames: configuration.allowedHosts)
    }
}
