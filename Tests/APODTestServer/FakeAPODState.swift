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

    public init() {}

    /// The next API requests get these replies, in order; later ones the default.
    public func enqueueAPI(_ replies: FakeReply...) { apiQueue += replies }
    public func enqueueImages(_ replies: FakeReply...) { imageQueue += replies }
    public func setAPIDefault(_ reply: FakeReply) { apiDefault = reply }
    public func setImageDefault(_ reply: FakeReply) { imageDefault = reply }

    func nextAPIReply(query: [String: String]) -> FakeReply {
        apiRequests.append(APIRequest(query: query))
        return apiQueue.isEmpty ? apiDefault : apiQueue.removeFirst()
    }

    func nextImageReply(path: String) -> FakeReply {
        imagePaths.append(path)
        return imageQueue.isEmpty ? imageDefault : imageQueue.removeFirst()
    }
}
