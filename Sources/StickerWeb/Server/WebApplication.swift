import Foundation
import Hummingbird
import Logging
import SpacePhotos
import StickerApp
import StickerKit
import StickerLibrary

/// What the web app is made of: where it listens and its limits, the engine, the cache, the
/// library, the space photo API. `stickers serve` fills it from its options; the web tests fill it
/// with fakes and temporary folders; both build the app with `buildApplication(_:)`.
public struct WebAppConfiguration: Sendable {
    public var web: WebConfiguration
    public var processor: any PhotoProcessing
    /// The processed-photo cache's disk tier (nil: memory only).
    public var cache: ProcessedPhotoDiskCache?
    /// Photos processed at once (default: one per core).
    public var maxConcurrentJobs: Int
    /// The library kept across restarts (nil: this run only).
    public var store: StickerLibrary?
    public var catalogAPI: APODConfiguration
    /// What the Space tab loads when asked for "random" photos.
    public var catalogSelection: CatalogModel.Selection
    /// Where saved space photos go (the photo folder when there is one, so "Use library photos" finds them).
    public var savedPhotos: URL
    public var colorExtractor: any ColorSchemeExtracting
    /// Where packs are built for a download (default: `ScratchFolder`s).
    public var packFolders: PackFolders
    public var logger: Logger
    /// Makes uploaded and imported clips into animated stickers (nil: clips are refused, saying why).
    public var clipStickers: ClipStickers?

    public init(web: WebConfiguration, processor: any PhotoProcessing, cache: ProcessedPhotoDiskCache? = nil,
                maxConcurrentJobs: Int = ProcessInfo.processInfo.activeProcessorCount, store: StickerLibrary? = nil,
                catalogAPI: APODConfiguration = APODConfiguration(), catalogSelection: CatalogModel.Selection = .random(count: 12),
                savedPhotos: URL? = nil, colorExtractor: any ColorSchemeExtracting = PhotoColorSchemeExtractor(),
                packFolders: PackFolders = ScratchFolder.packFolders, logger: Logger = Logger(label: "stickers.web")) {
        self.web = web
        self.processor = processor
        self.cache = cache
        self.maxConcurrentJobs = maxConcurrentJobs
        self.store = store
        self.catalogAPI = catalogAPI
        self.catalogSelection = catalogSelection
        self.savedPhotos = savedPhotos ?? web.library
            ?? StickerPaths.homeDirectory().appendingPathComponent("Pictures/Stickers", isDirectory: true)
        self.colorExtractor = colorExtractor
        self.packFolders = packFolders
        self.logger = logger
    }
}

/// The built web app: the Hummingbird application to run (or test) and the services behind it.
public struct WebApp: Sendable {
    public let application: Application<RouterResponder<BasicRequestContext>>
    public let services: WebServices
}

/// The one wiring of the web app, used by `stickers serve` and by every web test: the services
/// made and restored from the library (the Stickers tab's photos and results, the Colours tab's
/// history, the saved space photos and favourites), then the routes on one router.
///
/// - Parameters:
///   - capacity: counts the work in flight against the limits (one is made if nil; tests pass
///     their own to fill it).
///   - onListening: receives the port actually bound (useful with port 0).
@MainActor
public func buildApplication(_ configuration: WebAppConfiguration, capacity: ServerCapacity? = nil,
                             onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws(LibraryError) -> WebApp {
    let web = configuration.web
    let store = configuration.store
    let cache = configuration.cache.map { ProcessedPhotoCache(processor: configuration.processor, disk: $0) }
        ?? ProcessedPhotoCache(processor: configuration.processor)
    let stickers = StickersService(
        model: StickerViewModel(cache: cache, maxConcurrentJobs: configuration.maxConcurrentJobs), maxPhotos: web.limits.maxPhotos,
        photoFolder: web.library, store: store, packFolders: configuration.packFolders,
        logger: configuration.logger)
    stickers.model.clipStickers = configuration.clipStickers
    let colors = ColorsService(model: ColorSchemeModel(extractor: configuration.colorExtractor), stickers: stickers, store: store)
    // Favourites and the photos seen before live in the library, so a restart or an unreachable
    // API still has them.
    let catalog = CatalogModel(client: APODClient(configuration: configuration.catalogAPI), libraryFolder: configuration.savedPhotos,
                               selection: configuration.catalogSelection, store: store.map(LibraryCatalogStore.init))
    let space = SpaceService(model: catalog, stickers: stickers, store: store)
    try await stickers.restore()
    try await colors.restore()
    try await space.restore()
    await catalog.loadFavorites()
    let services = WebServices(stickers: stickers, colors: colors, space: space)
    let application = WebApplication.make(configuration: web, services: services, capacity: capacity,
                                          logger: configuration.logger, onListening: onListening)
    return WebApp(application: application, services: services)
}

/// The web app's router and server: the page and its assets, plus each tab's API.
public enum WebApplication {
    /// The router with every route.
    /// `capacity` counts the work in flight against `configuration.limits` (one is made if nil).
    static func router(configuration: WebConfiguration, services: WebServices,
                       hosts: HostAllowList? = nil, capacity: ServerCapacity? = nil) -> Router<BasicRequestContext> {
        let capacity = capacity ?? ServerCapacity(limits: configuration.limits)
        let router = Router()
        router.add(middleware: JSONErrorMiddleware())
        router.add(middleware: HostAllowListMiddleware(allowList: hosts ?? HostAllowList(configuration)))
        router.add(middleware: SameOriginMiddleware())
        router.add(middleware: RequestLimitsMiddleware(capacity: capacity))
        AssetRoutes().register(on: router)
        StickerRoutes(service: services.stickers, capacity: capacity).register(on: router)
        EditorRoutes(service: services.stickers, limits: configuration.limits).register(on: router)
        ColorRoutes(service: services.colors, capacity: capacity).register(on: router)
        SpaceRoutes(service: services.space).register(on: router)
        return router
    }

    /// The application bound to the configured host and port.
    static func make(
        configuration: WebConfiguration,
        services: WebServices,
        capacity: ServerCapacity?,
        logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void
    ) -> Application<RouterResponder<BasicRequestContext>> {
        let hosts = HostAllowList(configuration)
        // A connection silent for idleSeconds — between requests, or in the middle of reading one —
        // is closed: a client cannot hold a connection open by saying nothing.
        let idleMilliseconds = Int64(configuration.limits.idleSeconds * 1000)
        return Application(
            router: router(configuration: configuration, services: services, hosts: hosts, capacity: capacity),
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

/// The service behind each tab, one of each for the whole app (it serves one person).
public struct WebServices: Sendable {
    public var stickers: StickersService
    public var colors: ColorsService
    public var space: SpaceService

    public init(stickers: StickersService, colors: ColorsService, space: SpaceService) {
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
