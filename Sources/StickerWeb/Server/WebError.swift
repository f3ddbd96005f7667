import Hummingbird
import StickerApp

/// The errors the web app answers with: each becomes a 4xx (or 503) response with a JSON body
/// `{"error":{"message":"…"}}`, the message written for the person using the page.
enum WebError: Error, Sendable, Equatable {
    case badRequest(String)
    case notFound(String)
    case conflict(String)
    case tooLarge(String)
    case unsupportedMediaType(String)
    case unprocessable(String)
    /// A service the app depends on (the space photo API) failed.
    case badGateway(String)
    /// The request's body stopped arriving before its deadline (408).
    case requestTimeout(String)
    /// The client holds more of something than the limits allow (429, with Retry-After).
    case tooManyRequests(String, retryAfter: Int)
    /// The server is at a capacity limit (503, with Retry-After): answered at once, never queued.
    case busy(String, retryAfter: Int)
    /// What was asked for could not be kept (a full disk, a read-only library): 507, with the cause.
    case insufficientStorage(String)

    /// A service's refusal as the HTTP answer for it: the one mapping of app errors to statuses.
    init(_ error: ServiceError) {
        self = switch error {
        case .invalidRequest(let message): .badRequest(message)
        case .notFound(let message): .notFound(message)
        case .notReady(let message): .conflict(message)
        case .unusable(let message): .unprocessable(message)
        case .notKept(let message): .insufficientStorage(message)
        case .upstreamFailed(let message): .badGateway(message)
        }
    }

    var httpError: HTTPError {
        switch self {
        case .badRequest(let message): HTTPError(.badRequest, message: message)
        case .notFound(let message): HTTPError(.notFound, message: message)
        case .conflict(let message): HTTPError(.conflict, message: message)
        case .tooLarge(let message): HTTPError(.contentTooLarge, message: message)
        case .unsupportedMediaType(let message): HTTPError(.unsupportedMediaType, message: message)
        case .unprocessable(let message): HTTPError(.unprocessableContent, message: message)
        case .badGateway(let message): HTTPError(.badGateway, message: message)
        case .requestTimeout(let message): HTTPError(.requestTimeout, headers: [.connection: "close"], message: message)
        case .tooManyRequests(let message, let retry):
            HTTPError(.tooManyRequests, headers: [.retryAfter: String(retry)], message: message)
        case .busy(let message, let retry): HTTPError(.serviceUnavailable, headers: [.retryAfter: String(retry)], message: message)
        case .insufficientStorage(let message):
            HTTPError(HTTPResponse.Status(code: 507, reasonPhrase: "Insufficient Storage"), message: message)
        }
    }
}

extension WebError: HTTPResponseError {
    var status: HTTPResponse.Status { httpError.status }
    var headers: HTTPFields { httpError.headers }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try httpError.response(from: request, context: context)
    }
}
