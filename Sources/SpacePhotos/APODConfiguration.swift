import Foundation

/// Where the catalog comes from and how patiently to ask for it.
public struct APODConfiguration: Sendable {
    /// NASA's public endpoint: the only host the client knows by name.
    public static let defaultBaseURL = URL(string: "https://api.nasa.gov/planetary/apod")!
    /// NASA's shared demonstration key (about 30 requests an hour per IP address).
    public static let demoKey = "DEMO_KEY"
    /// The environment variable that supplies a personal key.
    public static let apiKeyVariable = "APOD_API_KEY"
    /// The API's own ceiling for `count`.
    public static let maxCount = 100

    /// The API endpoint, e.g. `https://api.nasa.gov/planetary/apod` or a fake server's.
    public var baseURL: URL
    public var apiKey: String
    /// Longest wait for a connection or for the next bytes of an answer (whole seconds on Linux:
    /// URLSession's idle timeout). Short, so a machine without network fails fast.
    public var connectTimeout: Duration
    /// Deadline for one API request, retries excluded.
    public var requestTimeout: Duration
    /// Deadline for one image download.
    public var downloadTimeout: Duration
    public var retry: RetryPolicy
    /// Days fetched at once by `photos(for:)`.
    public var maxConcurrentRequests: Int
    /// Largest image accepted, so a wrong URL cannot fill memory.
    public var maxImageBytes: Int
    /// Receives one line per item skipped from a page (and similar notices). Default: stderr.
    public var log: @Sendable (String) -> Void

    /// - Parameter apiKey: an explicit key; otherwise `APOD_API_KEY` from `environment`, then `DEMO_KEY`.
    public init(
        baseURL: URL = APODConfiguration.defaultBaseURL,
        apiKey: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        connectTimeout: Duration = .seconds(10),
        requestTimeout: Duration = .seconds(30),
        downloadTimeout: Duration = .seconds(120),
        retry: RetryPolicy = RetryPolicy(),
        maxConcurrentRequests: Int = 4,
        maxImageBytes: Int = 64 << 20,
        log: @escaping @Sendable (String) -> Void = APODConfiguration.logToStandardError
    ) {
        self.baseURL = baseURL
        self.apiKey = Self.resolveAPIKey(explicit: apiKey, environment: environment)
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.downloadTimeout = downloadTimeout
        self.retry = retry
        self.maxConcurrentRequests = max(1, maxConcurrentRequests)
        self.maxImageBytes = maxImageBytes
        self.log = log
    }

    /// An explicit key wins, then the environment, then NASA's demo key.
    public static func resolveAPIKey(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment[apiKeyVariable], !fromEnvironment.isEmpty { return fromEnvironment }
        return demoKey
    }

    public static let logToStandardError: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("SpacePhotos: \(message)\n".utf8))
    }
}
