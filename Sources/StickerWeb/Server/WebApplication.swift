import Foundation
import Hummingbird
import Logging

/// The web app: the page and its assets, plus each tab's API, on one Hummingbird router.
public enum WebApplication {
    /// The router with every route; tests drive it through HummingbirdTesting.
    public static func router(configuration: WebConfiguration, sessions: WebSessions,
                              hosts: HostAllowList? = nil) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: HostAllowListMiddleware(allowList: hosts ?? HostAllowList(configuration)))
        router.add(middleware: SameOriginMiddleware())
        AssetRoutes().register(on: router)
        StickerRoutes(session: sessions.stickers, limits: configuration.limits).register(on: router)
        ColorRoutes(session: sessions.colors, limits: configuration.limits).register(on: router)
        SpaceRoutes(session: sessions.space).register(on: router)
        return router
    }

    /// The application bound to the configured host and port. `onListening` receives the port
    /// actually bound (useful with port 0).
    public static func make(
        configuration: WebConfiguration,
        sessions: WebSessions,
        logger: Logger = Logger(label: "stickers.web"),
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let hosts = HostAllowList(configuration)
        return Application(
            router: router(configuration: configuration, sessions: sessions, hosts: hosts),
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
