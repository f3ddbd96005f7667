import Foundation

/// How the web app is served and what it accepts. Every limit is explicit and reported to the
/// page, so the browser can say "at most 25 MB" before it uploads anything.
public struct WebConfiguration: Sendable {
    /// Loopback by default: the app serves a person's own photos and has no authentication.
    public var host: String
    /// 0 asks the system for a free port (tests); the bound port is reported once listening.
    public var port: Int
    /// The folder of photos offered by "Use library photos" (and where saved space photos go).
    public var library: URL?
    public var limits: WebLimits
    /// Host names the app answers to besides the loopback names and `host` (see
    /// `HostAllowListMiddleware`): e.g. the machine's name when it listens on 0.0.0.0.
    public var allowedHosts: [String]

    public init(host: String = "127.0.0.1", port: Int = 8080, library: URL? = nil, limits: WebLimits = WebLimits(),
                allowedHosts: [String] = []) {
        self.host = host
        self.port = port
        self.library = library
        self.limits = limits
        self.allowedHosts = allowedHosts
    }
}

public struct WebLimits: Sendable, Hashable, Codable {
    /// The largest request body an upload may have (all of its files together).
    public var maxUploadBytes: Int
    /// The most photos the sticker tab holds at once.
    public var maxPhotos: Int

    public init(maxUploadBytes: Int = 32 * 1024 * 1024, maxPhotos: Int = 200) {
        self.maxUploadBytes = maxUploadBytes
        self.maxPhotos = maxPhotos
    }
}
