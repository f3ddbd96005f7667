import ArgumentParser
import Foundation
import StickerApp
import SpacePhotos
import StickerKit
import StickerLibrary
import StickerWeb

/// `stickers serve`: the web app (the GUI on Linux) on a local address.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the web app: sticker packs, colour schemes and space photos in a browser.",
        discussion: """
            Listens on 127.0.0.1 unless told otherwise: the app shows your photos and has no login, \
            so expose it beyond this machine only on a network you trust. Requests that name another host \
            are refused (a defence against DNS rebinding): add names with --allow-host. --port 0 picks a free port. \
            Prints "Serving on http://HOST:PORT" once listening. \
            SIGINT or SIGTERM stops it in order: photo processing stops at once (the photos being made \
            are dropped, those finished are kept in the library), requests in flight get 3 s to finish and are \
            then cancelled (their writes undone), and the server exits 0. If that takes more than \
            4.5 s, or a second signal comes, it exits at once with 130; nothing half-written is kept.
            """
    )

    @Option(help: ArgumentHelp("A folder of photos offered by \"Use library photos\" (imported into the library when used).", valueName: "DIR"))
    var photos: String?

    /// The old name of --photos (it never was the library): still accepted, with a notice.
    @Option(help: .hidden)
    var library: String?

    @Option(help: ArgumentHelp("Where the library (photos, stickers, colour history, saved space photos) is kept "
                               + "(default: $\(StickerPaths.dataVariable), else $XDG_DATA_HOME/stickers).", valueName: "DIR"))
    var dataDir: String?

    @Option(help: ArgumentHelp("The processed-photo cache's folder (default: $\(StickerPaths.cacheVariable), else $XDG_CACHE_HOME/stickers).", valueName: "DIR"))
    var cacheDir: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port).")
    var port = 8080

    @Option(name: .customLong("allow-host"),
            help: ArgumentHelp("Another host name the app answers to (repeatable); requests naming any other host are refused.",
                               valueName: "NAME"))
    var allowedHosts: [String] = []

    @Option(help: ArgumentHelp("Base URL of the APOD-compatible API for the Space tab.", valueName: "URL"))
    var catalogAPI: String?

    @Option(help: "API key for the Space tab (default: $\(APODConfiguration.apiKeyVariable), else \(APODConfiguration.demoKey)).")
    var catalogAPIKey: String?

    @Flag(help: .hidden)
    var preview = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
        if photos != nil && library != nil { throw ValidationError("--library is the old name of --photos: give only --photos") }
        if let catalogAPI, Self.apiURL(catalogAPI) == nil {
            throw ValidationError("--catalog-api must be an http(s) URL, not \(catalogAPI)")
        }
    }

    @MainActor func run() async throws {
        // As make: a server running for days must not creep up through heap fragmentation
        // (scripts/soak_serve.py, docs/benchmarks.md: peak RSS 338 → 280 MB, idle RSS after the
        // run 221 → 103 MB over five minutes of mixed use).
        AllocatorTuning.returnLargeBlocksAtOnce()
        if library != nil {
            printError("--library DIR is now --photos DIR (a folder of photos to import); the library itself is kept in --data-dir")
        }
        var libraryURL: URL?
        if let photos = photos ?? library {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: photos, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw fail("photo folder \(photos) does not exist", ExitStatus.ioError)
            }
            libraryURL = URL(fileURLWithPath: photos, isDirectory: true)
        }
        let store: StickerLibrary
        do {
            store = try StickerLibrary(folder: StickerPaths.dataDirectory(explicit: dataDir))
        } catch {
            throw fail("\(error)", ExitStatus.ioError)
        }
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            printError("listening on \(host): anyone who can reach this address can see and change your photos")
        }
        let configuration = WebConfiguration(host: host, port: port, library: libraryURL, allowedHosts: allowedHosts)
        let cache = ProcessedPhotoCache(processor: await Self.processor(preview: preview),
                                        disk: .standard(cacheDirectory: StickerPaths.cacheDirectory(explicit: cacheDir)))
        let model = StickerViewModel(cache: cache)
        let session = StickerSession(model: model, library: libraryURL, limits: configuration.limits, store: store)
        let host = host
        let client = APODClient(configuration: APODConfiguration(
            baseURL: catalogAPI.flatMap(Self.apiURL) ?? APODConfiguration.defaultBaseURL, apiKey: catalogAPIKey))
        // Saved space photos go into the library, so "Use library photos" finds them.
        let savedPhotos = libraryURL ?? FileManager.default.homeDirectoryForCurrentUser
            .appendingPathComponent("Pictures/Stickers", isDirectory: true)
        let colors = ColorSession(model: ColorSchemeModel(), stickers: session, store: store)
        do {
            try await session.restore()
            try await colors.restore()
        } catch {
            throw fail("\(error)", ExitStatus.ioError)
        }
        // Favourites and the photos seen before live in the library, so a restart or an
        // unreachable API still has them.
        let catalog = CatalogModel(client: client, libraryFolder: savedPhotos, selection: .random(count: 12),
                                   store: LibraryCatalogStore(library: store))
        let space = SpaceSession(model: catalog, stickers: session, store: store)
        do { try await space.restore() } catch { throw fail("\(error)", ExitStatus.ioError) }
        await catalog.loadFavorites()
        let sessions = WebSessions(stickers: session, colors: colors, space: space)
        let app = WebApplication.make(configuration: configuration, sessions: sessions) { port in
            // Scripts wait for this line to learn the port (with --port 0): write it unbuffered.
            FileHandle.standardOutput.write(Data("Serving on http://\(host):\(port)\n".utf8))
        }
        // Downloads a killed server was building (its temporary folders) go now.
        ScratchFolder.removeLeftovers()
        let server = WebServer(app, sessions: sessions)
        let signals = await StopSignals.install(stop: { server.stop() }, cleanUp: { ScratchFolder.removeOwn() })
        defer { signals.finish() }
        do {
            try await server.run()
        } catch {
            throw fail("cannot serve on \(host):\(port): \(error)", ExitStatus.ioError)
        }
        printError("stopped")
    }

    static func apiURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host != nil else { return nil }
        return url
    }

    /// The sticker engine, or the preview stand-in when asked for (`--preview`, used by the
    /// browser tests, which test the app rather than the engine) or when the engine cannot be had:
    /// the app stays usable and says why on standard error.
    private static func processor(preview: Bool) async -> any PhotoProcessing {
        if preview { return PreviewPhotoProcessor() }
        do {
            // The view model runs one photo per core, so the network gets one thread per photo.
            return try await StickerEngine.photoProcessor(
                colorCount: 5, concurrentPhotos: ProcessInfo.processInfo.activeProcessorCount, log: { printError($0) })
        } catch {
            printError("the sticker engine is unavailable (\(error)); serving previews: whole photos, no cut-out")
            return PreviewPhotoProcessor()
        }
    }
}
