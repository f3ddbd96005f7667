import BoundedConcurrency
import Foundation
import Raster
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client for NASA's Astronomy Picture of the Day API or any server speaking its protocol.
///
/// A Sendable value: copies share one URLSession and one `RequestThrottle` (the actor holding the
/// rate-limit pause). The public entry points are `@concurrent`, so they never run on the
/// caller's actor.
public struct APODClient: Sendable {
    public let configuration: APODConfiguration
    let transport: HTTPTransport
    let throttle = RequestThrottle()

    public init(configuration: APODConfiguration = APODConfiguration()) {
        self.configuration = configuration
        self.transport = HTTPTransport(connectTimeout: configuration.connectTimeout)
    }

    /// `count` random photos from the API's `count` parameter (one request).
    @concurrent
    public func randomPhotos(count: Int) async throws(APODError) -> [SpacePhoto] {
        guard (1...APODConfiguration.maxCount).contains(count) else {
            throw .invalidRequest("count must be between 1 and \(APODConfiguration.maxCount), not \(count)")
        }
        return try await page(query: [URLQueryItem(name: "count", value: String(count))]).photos
    }

    /// The photo of each day in `dates` (UTC days), fetched concurrently, at most
    /// `maxConcurrentRequests` at a time; results keep the order of `dates`, repeated days once.
    /// The first failing day fails the call and cancels the requests still running.
    @concurrent
    public func photos(for dates: [Date]) async throws(APODError) -> [SpacePhoto] {
        var days: [String] = []
        var seen = Set<String>()
        for date in dates where seen.insert(APODDay.string(from: date)).inserted {
            days.append(APODDay.string(from: date))
        }
        let limit = configuration.maxConcurrentRequests
        do {
            // A sliding window: `limit` requests, one more as each finishes.
            return try await concurrentMap(days, limit: limit) { day throws(APODError) in
                try await self.page(query: [URLQueryItem(name: "date", value: day)]).photos
            }.flatMap { $0 }
        } catch {
            throw HTTPTransport.map(error)
        }
    }

    /// The image bytes at `url` (see `SpacePhoto.imageURL(hd:)`), checked to be an image.
    @concurrent
    public func imageData(from url: URL) async throws(APODError) -> Data {
        let reply = try await send(url, deadline: configuration.downloadTimeout)
        guard reply.body.count <= configuration.maxImageBytes else {
            throw .malformedResponse("image larger than \(configuration.maxImageBytes) bytes")
        }
        guard ImageFormat.sniff(reply.body) != nil else {
            let type = reply.header("content-type") ?? "unknown type"
            throw .malformedResponse("\(url.absoluteString) is not a JPEG, PNG, GIF or WebP image (\(type))")
        }
        return reply.body
    }

    /// The rate-limit budget the server last announced (`X-RateLimit-Remaining`), if any.
    public func remainingRequests() async -> Int? {
        await throttle.remaining
    }

    // MARK: - Requests

    func page(query: [URLQueryItem]) async throws(APODError) -> SpacePhotoPage {
        let url = try endpoint(query: query)
        let reply = try await send(url, deadline: configuration.requestTimeout)
        let page = try SpacePhotoPage.decode(reply.body)
        for skipped in page.skipped {
            configuration.log("skipped \(skipped)")
        }
        return page
    }

    /// The endpoint with the caller's query plus the key and `thumbs=true` (so videos come with a
    /// still image). Query items already in the base URL are kept.
    func endpoint(query: [URLQueryItem]) throws(APODError) -> URL {
        guard var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: true),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              components.host != nil
        else {
            throw .invalidRequest("the API URL must be an http(s) URL, not '\(configuration.baseURL.absoluteString)'")
        }
        let names = Set(query.map(\.name) + ["api_key", "thumbs"])
        components.queryItems = (components.queryItems ?? []).filter { !names.contains($0.name) } + query + [
            URLQueryItem(name: "api_key", value: configuration.apiKey),
            URLQueryItem(name: "thumbs", value: "true"),
        ]
        guard let url = components.url else { throw .invalidRequest("cannot build a URL from \(components)") }
        return url
    }

    /// One GET with the retry policy: waits out a shared 429 pause, retries 5xx with backoff,
    /// honours a bounded `Retry-After`, and turns the API's error bodies into `APODError.api`.
    func send(_ url: URL, deadline: Duration) async throws(APODError) -> HTTPReply {
        let policy = configuration.retry
        var attempt = 0
        while true {
            attempt += 1
            let wait = await throttle.delayBeforeNextRequest()
            if wait > .zero { try await pause(wait, policy) }
            if Task.isCancelled { throw .cancelled }

            let reply = try await transport.get(url, deadline: deadline)
            await throttle.record(remaining: reply.header("x-ratelimit-remaining").flatMap { Int($0) })
            switch reply.status {
            case 200..<300:
                return reply
            case 429:
                let retryAfter = reply.header("retry-after").flatMap(Self.parseRetryAfter)
                guard let retryAfter, retryAfter <= policy.maxRetryAfter, attempt < policy.maxAttempts else {
                    throw .rateLimited(retryAfter: retryAfter)
                }
                await throttle.pause(for: retryAfter)
            case 500..<600:
                // A 503 may say when to come back; otherwise back off exponentially.
                let retryAfter = reply.header("retry-after").flatMap(Self.parseRetryAfter)
                guard attempt < policy.maxAttempts, (retryAfter ?? .zero) <= policy.maxRetryAfter else {
                    throw .server(status: reply.status)
                }
                try await pause(retryAfter ?? policy.backoff(afterAttempt: attempt), policy)
            default:
                throw .api(status: reply.status, message: Self.errorMessage(in: reply))
            }
        }
    }

    private func pause(_ duration: Duration, _ policy: RetryPolicy) async throws(APODError) {
        do {
            try await policy.sleep(duration)
        } catch {
            throw .cancelled
        }
    }

    /// `Retry-After` is either delay-seconds or an HTTP date (RFC 9110 §10.2.3).
    static func parseRetryAfter(_ value: String) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text), seconds >= 0 { return .seconds(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return .seconds(max(0, date.timeIntervalSinceNow.rounded(.up)))
    }

    /// The message of an error body: APOD's `{"code":400,"msg":"…"}`, api.nasa.gov's gateway
    /// `{"error":{"code":"…","message":"…"}}`, or the start of whatever text came.
    static func errorMessage(in reply: HTTPReply) -> String {
        struct APODBody: Decodable { let msg: String }
        struct GatewayBody: Decodable {
            struct Inner: Decodable { let code: String?; let message: String }
            let error: Inner
        }
        let decoder = JSONDecoder()
        if let body = try? decoder.decode(APODBody.self, from: reply.body) { return body.msg }
        if let body = try? decoder.decode(GatewayBody.self, from: reply.body) {
            return body.error.code.map { "\($0): \(body.error.message)" } ?? body.error.message
        }
        let text = String(decoding: reply.body.prefix(200), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // An HTML error page says nothing a terminal line can use.
        let isHTML = text.hasPrefix("<") || reply.header("content-type")?.contains("html") == true
        return text.isEmpty || isHTML ? "HTTP \(reply.status) \(HTTPURLResponse.localizedString(forStatusCode: reply.status))" : text
    }
}
