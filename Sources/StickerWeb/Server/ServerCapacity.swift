import Hummingbird
import Synchronization

/// Counts the work in progress and refuses more than the limits allow at once, instead of letting
/// it queue without bound: every waiting upload would hold its body in memory, every waiting pack a
/// turn of the main actor. A refusal is a `WebError` with a Retry-After, answered at once.
public final class ServerCapacity: Sendable {
    /// What is counted. Each has its limit in `WebLimits` and its refusal (429 or 503).
    enum Resource: Int, CaseIterable, Sendable {
        /// Requests being handled (a stream counts until its response starts).
        case requests
        /// Upload bodies being received and checked.
        case uploads
        /// Packs being built.
        case packs
        /// Server-sent event streams open.
        case eventStreams
    }

    let limits: WebLimits
    // One atomic counter a resource, not a Mutex: Synchronization's Mutex locks through futex calls
    // in the (uninstrumented) runtime, so ThreadSanitizer reported the counts it guards as raced
    // under concurrent requests; an atomic's operations are inlined here and seen.
    private let requests = Atomic<Int>(0), uploads = Atomic<Int>(0), packs = Atomic<Int>(0), eventStreams = Atomic<Int>(0)

    private func withCounter<T>(_ resource: Resource, _ body: (borrowing Atomic<Int>) -> T) -> T {
        switch resource {
        case .requests: body(requests)
        case .uploads: body(uploads)
        case .packs: body(packs)
        case .eventStreams: body(eventStreams)
        }
    }

    public init(limits: WebLimits) {
        self.limits = limits
    }

    func limit(of resource: Resource) -> Int {
        switch resource {
        case .requests: limits.maxRequestsInFlight
        case .uploads: limits.maxConcurrentUploads
        case .packs: limits.maxConcurrentPacks
        case .eventStreams: limits.maxEventStreams
        }
    }

    func inUse(_ resource: Resource) -> Int {
        withCounter(resource) { $0.load(ordering: .acquiring) }
    }

    /// One unit of `resource`, held until the slot is released (the last reference to it goes) —
    /// also when a response holding it is dropped unwritten — or the refusal if none is free.
    func claim(_ resource: Resource) throws(WebError) -> Slot {
        let limit = limit(of: resource)
        let claimed = withCounter(resource) { count -> Bool in
            var current = count.load(ordering: .relaxed)
            while current < limit {
                let (exchanged, original) = count.compareExchange(expected: current, desired: current + 1,
                                                                  ordering: .acquiringAndReleasing)
                if exchanged { return true }
                current = original
            }
            return false
        }
        guard claimed else { throw refusal(resource, limit: limit) }
        return Slot(capacity: self, resource: resource)
    }

    fileprivate func release(_ resource: Resource) {
        withCounter(resource) { _ = $0.subtract(1, ordering: .releasing) }
    }

    private func refusal(_ resource: Resource, limit: Int) -> WebError {
        let retry = limits.retryAfterSeconds
        return switch resource {
        case .requests: .busy("the server is busy: \(limit) requests are being handled; try again in \(retry) s", retryAfter: retry)
        case .uploads: .busy("\(limit) uploads are already being received; try again in \(retry) s", retryAfter: retry)
        case .packs: .busy("\(limit) packs are already being built; try again in \(retry) s", retryAfter: retry)
        // 429, not 503: the server is fine, the client (its tabs together) holds too many streams.
        case .eventStreams: .tooManyRequests("\(limit) event streams are already open (another tab of this page?); close one or try again in \(retry) s", retryAfter: retry)
        }
    }

    /// A claimed unit of a resource, given back when the slot is deallocated.
    final class Slot: Sendable {
        let capacity: ServerCapacity
        let resource: Resource

        fileprivate init(capacity: ServerCapacity, resource: Resource) {
            self.capacity = capacity
            self.resource = resource
        }

        deinit { capacity.release(resource) }
    }
}

/// Holds one of the pack slots (`WebLimits.maxConcurrentPacks`) for the whole of a request: the
/// policy for every route that builds a pack, so none can forget it. Beyond the limit: 503 with
/// Retry-After, at once.
struct PackSlotMiddleware<Context: RequestContext>: RouterMiddleware {
    let capacity: ServerCapacity

    // Hummingbird's protocol predates nonisolated(nonsending): spell out its @concurrent shape.
    @concurrent
    func handle(_ request: Request, context: Context,
                next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        let slot = try capacity.claim(.packs)
        defer { withExtendedLifetime(slot) {} }
        return try await next(request, context)
    }
}
