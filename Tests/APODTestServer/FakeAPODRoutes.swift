import Foundation
import Hummingbird
import ServiceLifecycle

/// The fake server's two routes: the API (`GET /planetary/apod`) and image bytes (`GET /image/…`).
enum FakeAPODRoutes {
    /// API keys that make the standalone server misbehave on purpose, for trying the CLI's errors
    /// by hand (`stickers catalog --api … --api-key fake-429`).
    static let keyedReplies: [String: FakeReply] = [
        "fake-429": .rateLimited(retryAfter: "3600"),
        "fake-500": .status(500, body: "Internal Server Error"),
        "fake-malformed": .malformedJSON,
        "fake-slow": .slow(.seconds(60)),
        "fake-403": .status(
            403, headers: ["Content-Type": "application/json"],
            body: #"{"error":{"code":"API_KEY_INVALID","message":"An invalid api_key was supplied."}}"#),
    ]

    static func router(state: FakeAPODState) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("planetary/apod") { request, _ -> Response in
            var query: [String: String] = [:]
            for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
            var reply = await state.nextAPIReply(query: query)
            if reply == .normal, let key = query["api_key"], let keyed = keyedReplies[key] { reply = keyed }
            await state.begin()
            do {
                if case .barrier(let count) = reply {
                    try await state.waitForBarrier(count)
                    reply = .normal
                }
                let response = try await answerAPI(reply, query: query, base: origin(of: request),
                                                   failingDays: await state.failingDays)
                await state.end()
                return response
            } catch {
                await state.end()
                throw error
            }
        }
        router.get("image/**") { request, _ -> Response in
            let path = request.uri.path
            return try await answerImage(await state.nextImageReply(path: path), path: path)
        }
        return router
    }

    /// `http://host:port` as the client addressed us, so image links lead back here.
    static func origin(of request: Request) -> String {
        "http://\(request.head.authority ?? "127.0.0.1")"
    }

    static func answerAPI(_ reply: FakeReply, query: [String: String], base: String,
                          failingDays: Set<String> = []) async throws -> Response {
        switch reply {
        case .normal:
            return normalAPIAnswer(query: query, base: base, failingDays: failingDays)
        case .slow(let delay):
            try await sleepUntilShutdown(delay)
            return normalAPIAnswer(query: query, base: base, failingDays: failingDays)
        case .items(let items):
            let body = "[" + items.map { $0.replacingOccurrences(of: "{base}", with: base) }.joined(separator: ",") + "]"
            return json(body)
        case .malformedJSON:
            return json(#"[{"date":"2024-01-01","title":"cut off"#)
        default:
            return answerCommon(reply)
        }
    }

    /// The real API's behaviour for the parameters the client uses; a range or day holding one
    /// of `failingDays` gets a 500, as a broken day makes the real API do.
    static func normalAPIAnswer(query: [String: String], base: String, failingDays: Set<String> = []) -> Response {
        if let start = query["start_date"] {
            guard query["date"] == nil, query["count"] == nil else {
                return apodError(400, "Bad Request: incompatible parameter start_date with date or count.")
            }
            let end = query["end_date"] ?? FakeAPODCatalog.dayString(Date())
            guard start.count == 10, end.count == 10, start >= FakeAPODCatalog.firstDay, start <= end else {
                return apodError(400, "Date must be between Jun 16, 1995 and today: \(start) to \(end).")
            }
            let days = FakeAPODCatalog.days(from: start, through: end)
            if days.contains(where: failingDays.contains) { return answerCommon(.status(500, body: "Internal Server Error")) }
            let items = days.map { FakeAPODCatalog.item(day: $0, template: FakeAPODCatalog.templateIndex(forDay: $0), base: base) }
            return withRateLimitHeaders(json("[" + items.joined(separator: ",") + "]"))
        }
        if let count = query["count"] {
            guard query["date"] == nil else { return apodError(400, "Bad Request: incompatible parameter count with date.") }
            guard let n = Int(count), n > 0 else { return apodError(400, "Count must be positive and cannot be zero.") }
            guard n <= 100 else { return apodError(400, "Count must not exceed 100.") }
            return withRateLimitHeaders(json(FakeAPODCatalog.page(count: n, base: base)))
        }
        let day = query["date"] ?? FakeAPODCatalog.countStartDay
        guard day.count == 10, day >= FakeAPODCatalog.firstDay else {
            return apodError(400, "Date must be between Jun 16, 1995 and today: \(day).")
        }
        if failingDays.contains(day) { return answerCommon(.status(500, body: "Internal Server Error")) }
        return withRateLimitHeaders(
            json(FakeAPODCatalog.item(day: day, template: FakeAPODCatalog.templateIndex(forDay: day), base: base)))
    }

    /// api.nasa.gov announces the key's budget on every answer.
    static func withRateLimitHeaders(_ response: Response) -> Response {
        var response = response
        if let limit = HTTPFields.Element.Name("X-RateLimit-Limit"),
           let remaining = HTTPFields.Element.Name("X-RateLimit-Remaining") {
            response.headers[limit] = "1000"
            response.headers[remaining] = "999"
        }
        return response
    }

    static func answerImage(_ reply: FakeReply, path: String) async throws -> Response {
        let bytes = path.hasSuffix(".png") ? FakeAPODCatalog.pngBytes : FakeAPODCatalog.jpegBytes
        let contentType = path.hasSuffix(".png") ? "image/png" : "image/jpeg"
        switch reply {
        case .normal:
            return Response(
                status: .ok, headers: [.contentType: contentType],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        case .slow(let delay):
            // Half the image at once, the rest after the delay: a download caught mid-way.
            let half = bytes.count / 2
            return Response(
                status: .ok, headers: [.contentType: contentType],
                body: ResponseBody(contentLength: bytes.count) { writer in
                    try await writer.write(ByteBuffer(bytes: bytes.prefix(half)))
                    try await sleepUntilShutdown(delay)
                    try await writer.write(ByteBuffer(bytes: bytes.dropFirst(half)))
                    try await writer.finish(nil)
                })
        case .malformedJSON, .items:
            return Response(
                status: .ok, headers: [.contentType: "text/html"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "<html>not an image</html>")))
        default:
            return answerCommon(reply)
        }
    }

    /// A slow reply's wait, cut short when the server shuts down, so stopping the server at the
    /// end of a test does not wait out a delay meant for the client.
    static func sleepUntilShutdown(_ delay: Duration) async throws {
        try await cancelWhenGracefulShutdown { try await Task.sleep(for: delay) }
    }

    static func answerCommon(_ reply: FakeReply) -> Response {
        switch reply {
        case .status(let code, let headers, let body):
            var fields = HTTPFields()
            for (name, value) in headers {
                if let name = HTTPFields.Element.Name(name) { fields[name] = value }
            }
            return Response(
                status: .init(code: code), headers: fields,
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        case .rateLimited(let retryAfter):
            var response = json(
                #"{"error":{"code":"OVER_RATE_LIMIT","message":"You have exceeded your rate limit."}}"#,
                status: .tooManyRequests)
            if let retryAfter { response.headers[.retryAfter] = retryAfter }
            return response
        case .apiError(let status, let message):
            return apodError(status, message)
        default:
            return json("[]")
        }
    }

    static func apodError(_ status: Int, _ message: String) -> Response {
        let body = try? JSONSerialization.data(
            withJSONObject: ["code": status, "msg": message, "service_version": "v1"] as [String: Any])
        return json(String(decoding: body ?? Data(), as: UTF8.self), status: .init(code: status))
    }

    static func json(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
