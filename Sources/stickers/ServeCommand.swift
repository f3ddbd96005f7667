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

    @Option(help: ArgumentHelp("Base URL of the APOD-compatible API for the Space tab (http or https).", valueName: "URL"))
    var catalogAPI: HTTPURLArgument?

    @Option(help: "API key for the Space tab (default: $\(APODConfiguration.apiKeyVariable), else \(APODConfiguration.demoKey)).")
    var catalogAPIKey: String?

    @Flag(help: .hidden)
    var preview = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard !host.isEmpty else { throw ValidationError("--host must not be empty") }
        if photos != nil && library != nil { throw ValidationError("--library is the old name of --photos: give only --photos") }
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
        let web = WebConfiguration(host: host, port: port, library: libraryURL, allowedHosts: allowedHosts)
        let processor = await Self.processor(preview: preview)
        var configuration = WebAppConfiguration(
            web: web, processor: processor,
            cache: .standard(cacheDirectory: StickerPaths.cacheDirectory(explicit: cacheDir)), store: store,
            catalogAPI: APODConfiguration(baseURL: catalogAPI?.url ?? APODConfiguration.defaultBaseURL,
                                          apiKey: catalogAPIKey))
        // Clips are cut out by the engine's own network (the preview's stand-in when it has none),
        // their stickers cached beside the processed photos, as `make` does.
        let predictor = (processor as? PhotoProcessor)?.subjectExtractor.predictor ?? BorderContrastSaliency()
        configuration.clipStickers = ClipStickers(maker: ClipStickerMaker(predictor: predictor),
                                                  cache: .inside(cacheDirectory: StickerPaths.cacheDirectory(explicit: cacheDir)))
        let host = host
        let app: WebApp
        do {
            app = try await buildApplication(configuration) { port in
                // Scripts wait for this line to learn the port (with --port 0): write it unbuffered.
                FileHandle.standardOutput.write(Data("Serving on http://\(host):\(port)\n".utf8))
            }
        } catch {
            throw fail("\(error)", ExitStatus.ioError)
        }
        // Downloads a killed server was building (its temporary folders) go now.
        ScratchFolder.removeLeftovers()
        let server = WebServer(app)
        let signals = await StopSignals.install(stop: { server.stop() }, cleanUp: { ScratchFolder.removeOwn() })
        defer { signals.finish() }
        do {
            try await server.run()
        } catch {
            throw fail("cannot serve on \(host):\(port): \(error)", ExitStatus.ioError)
        }
        printError("stopped")
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
