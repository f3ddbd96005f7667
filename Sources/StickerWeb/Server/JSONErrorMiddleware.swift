import Hummingbird
import StickerApp

/// Gives every error response a JSON body, `{"error":{"message":"…"}}`: Hummingbird's own
/// errors (an unknown path, a body over the size limit) come without one, and a page or a script
/// should never have to guess what went wrong. The services' `ServiceError`s become their HTTP
/// answers here (`WebError.init(_:)`), so a route just calls its service.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    // Hummingbird's protocol predates nonisolated(nonsending): spell out its @concurrent shape.
    @concurrent
    func handle(_ request: Request, context: Context,
                next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            throw WebError(error)
        } catch let error as HTTPError where error.body == nil {
            throw HTTPError(error.status, headers: error.headers, message: Self.message(for: error.status, request))
        } catch let error as any HTTPResponseError where !(error is HTTPError) && !(error is WebError) {
            throw HTTPError(error.status, message: Self.message(for: error.status, request))
        }
    }

    static func message(for status: HTTPResponse.Status, _ request: Request) -> String {
        switch status {
        case .notFound: "nothing at \(request.method) \(request.uri.path)"
        case .contentTooLarge: "the request body is too large"
        default: status.reasonPhrase
        }
    }
}

extension Router {
    /// Answers the methods a path does not support with 405 and an `Allow` header, rather than
    /// the router's default 404, so a client learns the path exists.
    func rejectOtherMethods(_ path: RouterPath, allowed: [HTTPRequest.Method]) {
        let all: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch]
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        for method in all where !allowed.contains(method) {
            on(path, method: method) { request, _ -> Response in
                throw HTTPError(.methodNotAllowed, headers: [.allow: allow],
                                message: "\(request.method) is not allowed on \(request.uri.path); use \(allow)")
            }
        }
    }
}
