/// The fake server's script and memory: replies queued by a test, then a default; and every
/// request it saw, so a test can check what the client sent.
public actor FakeAPODState {
    public struct APIRequest: Sendable, Equatable {
        public var query: [String: String]
    }

    private var apiQueue: [FakeReply] = []
    private var imageQueue: [FakeReply] = []
    private var apiDefault: FakeReply = .normal
    private var imageDefault: FakeReply = .normal
    public private(set) var apiRequests: [APIRequest] = []
    public private(set) var imagePaths: [String] = []
    /// API requests being answered now, and the most there ever were at once.
    public private(set) var inFlight = 0
    public private(set) var maxInFlight = 0

    public init() {}

    /// The next API requests get these replies, in order; later ones the default.
    public func enqueueAPI(_ replies: FakeReply...) { apiQueue += replies }
    public func enqueueImages(_ replies: FakeReply...) { imageQueue += replies }
    public func setAPIDefault(_ reply: FakeReply) { apiDefault = reply }
    public func setImageDefault(_ reply: FakeReply) { imageDefault = reply }

    /// Days the server fails with 500, alone or inside a range, as the real API does for a
    /// broken day (`yyyy-MM-dd`).
    public private(set) var failingDays: Set<String> = []
    public func setFailingDays(_ days: Set<String>) { failingDays = days }

    func nextAPIReply(query: [String: String]) -> FakeReply {
        apiRequests.append(APIRequest(query: query))
        return apiQueue.isEmpty ? apiDefault : apiQueue.removeFirst()
    }

    func begin() {
        inFlight += 1
        maxInFlight = max(maxInFlight, inFlight)
    }

    func end() { inFlight -= 1 }

    /// Once `count` requests were in flight together the barrier stays open for good.
    private var barrierOpen = false

    func waitForBarrier(_ count: Int) async throws {
        let giveUp = ContinuousClock.now + .seconds(5)
        while !barrierOpen, inFlight < count, ContinuousClock.now < giveUp {
            try await Task.sleep(for: .milliseconds(5))
        }
        barrierOpen = barrierOpen || inFlight >= count
    }

    func nextImageReply(path: String) -> FakeReply {
        imagePaths.append(path)
        return imageQueue.isEmpty ? imageDefault : imageQueue.removeFirst()
    }
}
