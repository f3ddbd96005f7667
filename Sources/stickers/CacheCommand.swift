import ArgumentParser
import Foundation
import StickerApp

/// `stickers cache info|clear`: the processed-photo cache, clips' animated stickers included
/// (re-creatable: clearing it only means the next `make` does the work again).
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the processed-photo cache (clips' animated stickers too).",
        discussion: """
            Processed photos and clips' animated stickers are kept under $\(StickerPaths.cacheVariable), \
            else $XDG_CACHE_HOME/stickers (default ~/.cache/stickers), keyed by the photo's or clip's \
            content and the settings that shape the result; the least recently used of either are \
            evicted past $\(StickerPaths.cacheLimitVariable) (default 2G). The model is not part of it.
            """,
        subcommands: [Info.self, Clear.self]
    )

    struct Options: ParsableArguments {
        @Option(help: ArgumentHelp("The cache's folder.", valueName: "DIR"))
        var cacheDir: String?

        var cache: ProcessedPhotoDiskCache {
            .standard(cacheDirectory: StickerPaths.cacheDirectory(explicit: cacheDir))
        }

        /// Where animated stickers were kept before they joined the processed photos' entries:
        /// outside the limit, so `clear` removes it.
        var formerClipsFolder: URL {
            StickerPaths.cacheDirectory(explicit: cacheDir).appending(path: "clips", directoryHint: .isDirectory)
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print where the cache is, its entries and size.")

        @OptionGroup var options: Options

        @Flag(help: "Print JSON: {\"path\":…,\"entries\":N,\"animated\":N,\"bytes\":N,\"limit\":N} (animated: of the entries, clips').")
        var json = false

        @MainActor func run() async throws {
            let cache = options.cache
            let usage = await cache.usage()
            if json {
                struct Report: Encodable { let path: String; let entries: Int; let animated: Int; let bytes: Int64; let limit: Int64 }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(Report(path: cache.folder.path, entries: usage.entries, animated: usage.animated,
                                                                  bytes: usage.bytes, limit: cache.sizeLimit)), as: UTF8.self))
            } else {
                print("\(cache.folder.path): \(Self.entries(usage)), \(Self.megabytes(usage.bytes)) "
                      + "of at most \(Self.megabytes(cache.sizeLimit))")
            }
        }

        static func megabytes(_ bytes: Int64) -> String {
            String(format: "%.1f MB", Double(bytes) / 1_048_576)
        }

        /// "3 processed photo(s)", "3 processed photo(s) and 2 animated sticker(s)".
        static func entries(_ usage: ProcessedPhotoDiskCache.Usage) -> String {
            let photos = "\(usage.entries - usage.animated) processed photo(s)"
            return usage.animated == 0 ? photos : photos + " and \(usage.animated) animated sticker(s)"
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every processed photo and animated sticker from the cache.")

        @OptionGroup var options: Options

        @MainActor func run() async throws {
            let cache = options.cache
            do {
                let removed = try await cache.clear()
                try? FileManager.default.removeItem(at: options.formerClipsFolder)
                print("Removed \(Info.entries(removed)), \(Info.megabytes(removed.bytes)), from \(cache.folder.path)")
            } catch {
                throw fail("\(error)", ExitStatus.ioError)
            }
        }
    }
}
