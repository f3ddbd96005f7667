import Foundation

/// Everything that can go wrong talking to an APOD-compatible server, as values.
public enum APODError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request cannot be made (count out of range, no usable base URL…); nothing was sent.
    case invalidRequest(String)
    /// The server refused the request with a message (400 bad date, 404 no photo, 403 bad key…).
    case api(status: Int, message: String)
    /// Too many requests, still refused after honouring `Retry-After` (or it asked for too long).
    case rateLimited(retryAfter: Duration?)
    /// The server kept failing (5xx) after the bounded retries.
    case server(status: Int)
    /// No answer in time (connect, idle or whole-request deadline).
    case timedOut
    /// The server could not be reached at all: no network, unknown host, connection refused.
    case unreachable(String)
    /// Any other transport failure.
    case transport(String)
    /// The answer is not what the protocol promises (not JSON, not an image, too large…).
    case malformedResponse(String)
    /// The caller cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .invalidRequest(let message): "invalid request: \(message)"
        case .api(let status, let message): "the server refused the request (HTTP \(status)): \(message)"
        case .rateLimited(let retryAfter):
            "rate limited by the server" + (retryAfter.map { "; it asks to retry after \($0.secondsText)" } ?? "")
                + " (a personal API key raises the limit)"
        case .server(let status): "the server failed (HTTP \(status)) and kept failing after retries"
        case .timedOut: "the server did not answer in time"
        case .unreachable(let message): "cannot reach the server: \(message)"
        case .transport(let message): "network error: \(message)"
        case .malformedResponse(let message): "unexpected answer from the server: \(message)"
        case .cancelled: "cancelled"
        }
    }

    /// True when the network, not the request, is the problem (no connection, no answer).
    public var isConnectivityProblem: Bool {
        switch self {
        case .timedOut, .unreachable, .transport: true
        default: false
        }
    }
}

extension Duration {
    var secondsText: String {
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.2f s", seconds)
    }
}
