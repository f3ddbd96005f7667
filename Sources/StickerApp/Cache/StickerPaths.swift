import Foundation
import ModelFetching

/// Where the app keeps its files (README: "Two commands" and the library paragraph): the library
/// in `$XDG_DATA_HOME/stickers`, the re-creatable processed-photo cache in
/// `$XDG_CACHE_HOME/stickers` (`UserDirectories` reads both); each overridable by its own
/// environment variable (and an option of the command), so tests use temporary folders.
nonisolated public enum StickerPaths {
    public static let dataVariable = "STICKERS_DATA_DIR"
    public static let cacheVariable = "STICKERS_CACHE_DIR"
    public static let cacheLimitVariable = "STICKERS_CACHE_LIMIT"

    /// The library's folder: `explicit`, else `$STICKERS_DATA_DIR`, else `$XDG_DATA_HOME/stickers`,
    /// else `~/.local/share/stickers`.
    public static func dataDirectory(explicit: String? = nil,
                                     environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        resolve(explicit, environment[dataVariable], base: UserDirectories.dataHome(environment: environment))
    }

    /// The cache's folder: `explicit`, else `$STICKERS_CACHE_DIR`, else `$XDG_CACHE_HOME/stickers`,
    /// else `~/.cache/stickers` (where the model is kept too).
    public static func cacheDirectory(explicit: String? = nil,
                                      environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        resolve(explicit, environment[cacheVariable], base: UserDirectories.cacheHome(environment: environment))
    }

    /// The cache's size limit in bytes: `$STICKERS_CACHE_LIMIT` ("500M", "2G", or bytes), else 2 GB.
    public static func cacheLimit(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int64 {
        environment[cacheLimitVariable].flatMap(parseSize) ?? 2 << 30
    }

    /// "750M", "2G", "1.5G", "4096K" or a plain number of bytes.
    public static func parseSize(_ text: String) -> Int64? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [Character: Double] = ["K": 0x1p10, "M": 0x1p20, "G": 0x1p30, "T": 0x1p40]
        var number = Substring(trimmed)
        var scale = 1.0
        if let last = number.last, last == "B" { number = number.dropLast() }
        if let last = number.last, let unit = units[last] { scale = unit; number = number.dropLast() }
        guard let value = Double(number), value >= 0 else { return nil }
        return Int64(value * scale)
    }

    /// The user's home: `$HOME` when absolute, as the model store (`UserDirectories`) and every
    /// XDG program read it; else the password database's.
    public static func homeDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        UserDirectories.home(environment: environment)
    }

    /// The first of `explicit` and `variable` that is set, else `stickers` in the XDG `base`.
    private static func resolve(_ explicit: String?, _ variable: String?, base: URL) -> URL {
        if let path = [explicit, variable].compactMap({ $0 }).first(where: { !$0.isEmpty }) {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return base.appending(path: "stickers", directoryHint: .isDirectory)
    }
}
