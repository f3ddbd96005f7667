import Hummingbird
import Synchronization

/// Refuses every request whose `Host` does not name this server, before any route runs.
///
/// The defence against DNS rebinding: a page on `evil.example` can make its own name resolve to
/// 127.0.0.1 and then reach this app from the browser as a "same-origin" site — its requests carry
/// `Host: evil.example:PORT` (and a matching `Origin`, so the same-origin check alone lets them
/// through). Only the loopback names, the address given with `--host` and any explicitly allowed
/// names are answered; a port, when the Host has one, must be the one the server listens on.
struct HostAllowListMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowList: HostAllowList

    @concurrent
    func handle(_ request: Request, context: Context,
                next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        let host = request.head.authority ?? request.headers.first { $0.name.canonicalName == "host" }?.value
        guard let host, allowList.allows(host) else {
            throw HTTPError(.misdirectedRequest,
                            message: "this server answers only to \(allowList.description); Host \(host ?? "(none)") is refused")
        }
        return try await next(request, context)
    }
}

/// The host names this server answers to, and the port it listens on once it is known (`--port 0`
/// asks the system for one, learned only when the server is running).
public final class HostAllowList: Sendable {
    /// Lower-cased names without port; IPv6 addresses in brackets, as a Host header writes them.
    let names: Set<String>
    private let port: Mutex<Int?>

    public init(host: String, port: Int, extraNames: [String] = []) {
        var names: Set<String> = ["127.0.0.1", "localhost", "[::1]"]
        for name in [host] + extraNames where !name.isEmpty {
            let lowered = name.lowercased()
            names.insert(lowered.contains(":") && !lowered.hasPrefix("[") ? "[\(lowered)]" : lowered)
        }
        self.names = names
        self.port = Mutex(port == 0 ? nil : port)
    }

    /// Records the port actually bound.
    public func listening(on port: Int) {
        self.port.withLock { $0 = port }
    }

    /// Whether a `Host` header value (`name`, `name:port`, `[v6]`, `[v6]:port`) names this server.
    func allows(_ host: String) -> Bool {
        guard let (name, hostPort) = Self.split(host.lowercased()), names.contains(name) else { return false }
        guard let hostPort else { return true }
        return port.withLock { bound in bound.map { $0 == hostPort } ?? true }
    }

    /// `name[:port]` split; nil when malformed (a non-numeric port, an unclosed bracket).
    static func split(_ host: String) -> (name: String, port: Int?)? {
        var name = Substring(host), portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            name = host[...close]
            let rest = host[host.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = host.lastIndex(of: ":") {
            name = host[..<colon]
            portText = host[host.index(after: colon)...]
        }
        guard !name.isEmpty else { return nil }
        guard let portText else { return (String(name), nil) }
        guard let port = Int(portText), (0...65_535).contains(port) else { return nil }
        return (String(name), port)
    }

    var description: String {
        let port = self.port.withLock { $0 }.map { ":\($0)" } ?? ""
        return names.sorted().map { $0 + port }.joined(separator: ", ")
    }
}
