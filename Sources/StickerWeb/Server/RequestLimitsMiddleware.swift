import Hummingbird

/// Holds every request to the server's limits before any route runs: one of the requests in
/// flight (503 with Retry-After beyond `maxRequestsInFlight`, never a queue), and a small body —
/// the API's JSON and form bodies — read in full within the body deadline (413 beyond
/// `maxJSONBodyBytes`, 408 when it stops arriving). Photo uploads are the exception: their routes
/// read them through `UploadReader`, with the upload limits.
struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    let capacity: ServerCapacity

    /// The routes whose body is a photo.
    static func isUpload(_ request: Request) -> Bool {
        request.method == .post && ["/api/stickers/photos", "/api/colors/photo"].contains(request.uri.path)
    }

    // Hummingbird's protocol predates nonisolated(nonsending): spell out its @concurrent shape.
    @concurrent
    func handle(_ request: Request, context: Context,
                next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        let slot = try capacity.claim(.requests)
        defer { withExtendedLifetime(slot) {} }
        var request = request
        if !Self.isUpload(request) {
            let limits = capacity.limits
            let body = try await RequestBodyReader.collect(request, maxBytes: limits.maxJSONBodyBytes,
                                                           seconds: limits.requestBodySeconds, what: "a request body")
            request.body = RequestBody(buffer: body)
        }
        return try await next(request, context)
    }
}
