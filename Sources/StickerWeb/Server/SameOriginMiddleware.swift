import Hummingbird

/// Refuses requests that change something when they come from another site's page.
///
/// The app has no login and listens on loopback, so any page open in the same browser could
/// otherwise post to it (cross-site request forgery): browsers send an `Origin` header with such
/// requests, and it must name this very host and port. Requests without `Origin` (curl, scripts)
/// and reads (GET, HEAD) pass.
struct SameOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    @concurrent
    func handle(_ request: Request, context: Context,
                next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        if request.method != .get, request.method != .head, let origin = request.headers[.origin],
           !isSameOrigin(origin, host: request.head.authority ?? request.headers.first { $0.name.canonicalName == "host" }?.value) {
            throw HTTPError(.forbidden, message: "cross-site request refused: \(origin) may not change this app")
        }
        return try await next(request, context)
    }

}

/// Whether `origin` (`scheme://host[:port]`) names `host` (`host[:port]`: the Host header, which
/// HTTP/1 parsing moves into the request's `authority`).
func isSameOrigin(_ origin: String, host: String?) -> Bool {
    guard let host, !host.isEmpty else { return false }
    for scheme in ["http://", "https://"] where origin.lowercased().hasPrefix(scheme) {
        return origin.dropFirst(scheme.count).lowercased() == host.lowercased()
    }
    return false
}
