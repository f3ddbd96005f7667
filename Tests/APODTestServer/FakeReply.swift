/// What the fake APOD server answers to one request.
public enum FakeReply: Sendable, Equatable {
    /// What the real API would answer (photos for `count`/`date`, or the image bytes).
    case normal
    /// A raw answer.
    case status(Int, headers: [String: String] = [:], body: String = "")
    /// 429 with an optional `Retry-After` value, and the gateway's error body.
    case rateLimited(retryAfter: String?)
    /// APOD's own error shape `{"code":…,"msg":…,"service_version":"v1"}`.
    case apiError(status: Int, message: String)
    /// 200 with a body that is not JSON.
    case malformedJSON
    /// Waits, then answers normally (an image starts its body first, then stalls).
    case slow(Duration)
    /// Answers normally once this many API requests were in flight together (or after 5 s); later
    /// requests then pass at once. Proves a client's concurrency without timing it.
    case barrier(Int)
    /// 200 with an array page of these raw JSON objects; `{base}` becomes the server's origin.
    case items([String])
}
