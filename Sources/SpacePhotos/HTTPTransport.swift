import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP answer, reduced to what the client reads (a Sendable value, unlike URLResponse).
struct HTTPReply: Sendable {
    var status: Int
    /// Header names lowercased.
    var headers: [String: String]
    var body: Data

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// GET over URLSession with a hard deadline and errors mapped to `APODError`.
///
/// URLSession's own timeout is an idle timeout in whole seconds on Linux (0.5 s becomes "at once"),
/// so it only bounds connecting and stalls; the per-request deadline is enforced here by racing
/// the request against a timer, which also makes sub-second deadlines work.
struct HTTPTransport: Sendable {
    let session: URLSession

    init(connectTimeout: Duration) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = max(1, connectTimeout.seconds.rounded(.up))
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    func get(_ url: URL, deadline: Duration) async throws(APODError) -> HTTPReply {
        let session = session
        do {
            return try await withThrowingTaskGroup(of: HTTPReply?.self) { group in
                group.addTask {
                    var request = URLRequest(url: url)
                    request.setValue("application/json, image/*;q=0.9, */*;q=0.5", forHTTPHeaderField: "Accept")
                    let (body, response) = try await session.data(for: request)
                    guard let http = response as? HTTPURLResponse else {
                        throw APODError.malformedResponse("not an HTTP response")
                    }
                    var headers: [String: String] = [:]
                    for (name, value) in http.allHeaderFields {
                        if let name = name as? String, let value = value as? String {
                            headers[name.lowercased()] = value
                        }
                    }
                    return HTTPReply(status: http.statusCode, headers: headers, body: body)
                }
                group.addTask {
                    try await Task.sleep(for: deadline)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let reply = first else {
                    throw APODError.timedOut
                }
                return reply
            }
        } catch {
            throw Self.map(error)
        }
    }

    static func map(_ error: any Error) -> APODError {
        if let error = error as? APODError { return error }
        if error is CancellationError { return .cancelled }
        if let error = error as? URLError {
            let detail = error.userInfo[NSLocalizedDescriptionKey] as? String ?? "\(error.code)"
            switch error.code {
            case .cancelled: return .cancelled
            case .timedOut: return .timedOut
            case .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed,
                 .networkConnectionLost, .internationalRoamingOff, .dataNotAllowed:
                return .unreachable(detail)
            default: return .transport(detail)
            }
        }
        return .transport("\(error)")
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
