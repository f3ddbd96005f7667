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
    /// 200 with an array page of these raw JSON objects; `{base}` becomes the server's origin.
    case items([String])
}
