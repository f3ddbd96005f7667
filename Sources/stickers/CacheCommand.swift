import ArgumentParser
import Foundation
import StickerApp

/// `stickers cache info|clear`: the processed-photo cache (re-creatable: clearing it only means
/// the next `make` does the work again).
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the processed-photo cache.",
        discussion: """
            Processed photos are kept under $\(StickerPaths.cacheVariable), else $XDG_CACHE_HOME/stickers \
            (default ~/.cache/stickers), keyed by the photo's content and the settings that shape the \
            result; the least recently used are evicted past $\(StickerPaths.cacheLimitVariable) \
            (default 2G). The model is not part of it.
            """,
        subcommands: [Info.self, Clear.self]
    )

    struct Options: ParsableArguments {
        @Option(help: ArgumentHelp("The cache's folder.", valueName: "DIR"))
        var cacheDir: String?

        var cache: ProcessedPhotoDiskCache {
            .standard(cacheDirectory: StickerPaths.cacheDirectory(explicit: cacheDir))
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "info", abstract: "Print where the cache is, its entries and size.")

        @OptionGroup var options: Options

        @Flag(help: "Print JSON: {\"path\":…,\"entries\":N,\"bytes\":N,\"limit\":N}.")
        var json = false

        @MainActor func run() async throws {
            let cache = options.cache
            let usage = await cache.usage()
            if json {
                struct Report: Encodable { let path: String; let entries: Int; let bytes: Int64; let limit: Int64 }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(Report(path: cache.folder.path, entries: usage.entries,
                                                                  bytes: usage.bytes, limit: cache.sizeLimit)), as: UTF8.self))
            } else {
                print("\(cache.folder.path): \(usage.entries) processed photo(s), \(Self.megabytes(usage.bytes)) "
                      + "of at most \(Self.megabytes(cache.sizeLimit))")
            }
        }

        static func megabytes(_ bytes: Int64) -> String {
            String(format: "%.1f MB", Double(bytes) / 1_048_576)
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every processed photo from the cache.")

        @OptionGroup var options: Options

        @MainActor func run() async throws {
            let cache = options.cache
            do {
                let removed = try await cache.clear()
                print("Removed \(removed.entries) processed photo(s), \(Info.megabytes(removed.bytes)), from \(cache.folder.path)")
            } catch {
                throw fail("\(error)", ExitStatus.ioError)
            }
        }
    }
}
