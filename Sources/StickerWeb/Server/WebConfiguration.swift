import Foundation
import Raster

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

/// Every limit the web app holds requests to, each with the answer beyond it. All are reported to
/// the page (`GET /api/stickers` → `limits`), so it can say "at most 32 MB" before it uploads.
/// Capacity refusals (429, 503) carry `Retry-After: retryAfterSeconds`: the server answers them at
/// once instead of queueing the work.
public struct WebLimits: Sendable, Hashable, Codable {
    /// The largest upload body, all of its files together: 413 beyond.
    public var maxUploadBytes: Int
    /// The most photos the sticker tab holds at once: 422 beyond.
    public var maxPhotos: Int
    /// The most pixels (width × height, read from the header before any decoding) one uploaded
    /// photo may have: 422 beyond. The decoder's own limit, so an upload is refused at once rather
    /// than failing when processed.
    public var maxPhotoPixels: Int
    /// The largest body of any other request (the API's small JSON and form bodies): 413 beyond.
    public var maxJSONBodyBytes: Int
    /// Server-sent event streams open at once (a page holds one while a batch runs): 429 beyond.
    public var maxEventStreams: Int
    /// Uploads being received at once (each holds up to `maxUploadBytes` in memory): 503 beyond.
    public var maxConcurrentUploads: Int
    /// Packs being built at once (each encodes every sticker): 503 beyond.
    public var maxConcurrentPacks: Int
    /// Requests being handled at once (an event stream counts until its response starts): 503 beyond.
    public var maxRequestsInFlight: Int
    /// Seconds a request's body may take to arrive in full: 408 beyond (32 MB in 60 s is 0.5 MB/s).
    public var requestBodySeconds: Double
    /// Seconds a connection may send nothing while a request is being read, or stay idle between
    /// requests, before the server closes it. An event stream being written is not idle.
    public var idleSeconds: Double
    /// The `Retry-After` of a 429 or 503, in seconds.
    public var retryAfterSeconds: Int

    public init(maxUploadBytes: Int = 32 * 1024 * 1024, maxPhotos: Int = 200,
                maxPhotoPixels: Int = DecodingLimits.default.maxPixelCount, maxJSONBodyBytes: Int = 64 * 1024,
                maxEventStreams: Int = 16, maxConcurrentUploads: Int = 4, maxConcurrentPacks: Int = 2,
                maxRequestsInFlight: Int = 64, requestBodySeconds: Double = 60, idleSeconds: Double = 30,
                retryAfterSeconds: Int = 2) {
        self.maxUploadBytes = maxUploadBytes
        self.maxPhotos = maxPhotos
        self.maxPhotoPixels = maxPhotoPixels
        self.maxJSONBodyBytes = maxJSONBodyBytes
        self.maxEventStreams = maxEventStreams
        self.maxConcurrentUploads = maxConcurrentUploads
        self.maxConcurrentPacks = maxConcurrentPacks
        self.maxRequestsInFlight = maxRequestsInFlight
        self.requestBodySeconds = requestBodySeconds
        self.idleSeconds = idleSeconds
        self.retryAfterSeconds = retryAfterSeconds
    }
}
