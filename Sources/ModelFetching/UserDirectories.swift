import Foundation

/// The user's home, cache home and data home as XDG programs read them, for the model's cache here
/// and the app's folders above (`StickerPaths`): one reading, so a run with another HOME keeps the
/// model, the cache and the library in one home.
public enum UserDirectories {
    /// `$HOME` when absolute; else the password database's home. (Foundation's home directory on
    /// Linux is the password database's alone.)
    public static func home(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let home = environment["HOME"], home.hasPrefix("/") { return URL(fileURLWithPath: home, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser
    }

    /// `$XDG_CACHE_HOME` when absolute (the XDG specification: a relative value is invalid and
    /// ignored); else `.cache` in `home(environment:)`.
    public static func cacheHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        xdgDirectory("XDG_CACHE_HOME", else: ".cache", environment: environment)
    }

    /// `$XDG_DATA_HOME` when absolute; else `.local/share` in `home(environment:)`.
    public static func dataHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        xdgDirectory("XDG_DATA_HOME", else: ".local/share", environment: environment)
    }

    private static func xdgDirectory(_ variable: String, else fallback: String, environment: [String: String]) -> URL {
        if let xdg = environment[variable], xdg.hasPrefix("/") { return URL(fileURLWithPath: xdg, isDirectory: true) }
        return home(environment: environment).appendingPathComponent(fallback, isDirectory: true)
    }
}
