import Raster

/// The network's looks at a clip's frames, several frames at once: each lane is a child task with
/// its own one-thread inference session. A look needs no other frame (only following the subject
/// through the looks does, in order, after them: `ClipSubjectTracker.look`), and U²-Net-p's small
/// deep layers leave the second core waiting when one look is split over two: on two cores, two
/// one-thread looks side by side get through more frames a second than one two-thread look
/// (`stickers-bench looks`: a full look 341 ms on one thread, 213 ms on two).
///
/// Used by one task, inside `with`. Each lane has a second frame queued behind the one it looks at
/// (`submit` waits while every lane has two): the lanes go on while the tracker follows the
/// subject or a plate sample is taken, and that many frames are held at most.
struct LookLanes {
    private struct Job: Sendable {
        var index: Int
        var frame: Image
        var depth: ClipSubjectTracker.LookDepth
    }

    private struct Seen: Sendable {
        var index: Int
        var lane: Int
        var saliency: Result<Plane, SubjectExtractionError>
    }

    private let jobs: [AsyncStream<Job>.Continuation]
    private var results: AsyncStream<Seen>.Iterator
    /// Frames handed to each lane and not yet seen back.
    private var outstanding: [Int]
    private var arrived: [Int: Result<Plane, SubjectExtractionError>] = [:]

    /// How many looks can run at once.
    var count: Int { jobs.count }
    /// How many frames each lane holds at most (the one it looks at, those queued).
    static let depth = 2
    /// How many frames may be handed out and not yet looked at by the tracker, for every lane busy.
    var ahead: Int { count * Self.depth }

    /// Runs `body` with `count` lanes looking through `predictor`; they end with it (cancelled if
    /// it throws).
    static func with<Result>(predictor: any SaliencyPredicting, count: Int,
                             _ body: (inout LookLanes) async throws -> Result) async throws -> Result {
        let (results, delivered) = AsyncStream.makeStream(of: Seen.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            var jobs: [AsyncStream<Job>.Continuation] = []
            for lane in 0..<max(1, count) {
                let (queue, input) = AsyncStream.makeStream(of: Job.self)
                jobs.append(input)
                group.addTask {
                    // The session is made and used by this lane's task alone.
                    let session = predictor.makeSession(threads: 1)
                    for await job in queue {
                        let saliency: Swift.Result<Plane, SubjectExtractionError>
                        do throws(SubjectExtractionError) {
                            saliency = .success(try await session.saliency(of: job.frame, depth: job.depth))
                        } catch {
                            saliency = .failure(error)
                        }
                        delivered.yield(Seen(index: job.index, lane: lane, saliency: saliency))
                    }
                }
            }
            defer { jobs.forEach { $0.finish() } }
            var lanes = LookLanes(jobs: jobs, results: results.makeAsyncIterator())
            return try await body(&lanes)
        }
    }

    private init(jobs: [AsyncStream<Job>.Continuation], results: AsyncStream<Seen>.Iterator) {
        self.jobs = jobs
        self.results = results
        self.outstanding = Array(repeating: 0, count: jobs.count)
    }

    /// Hands the look at `frame` (the `index`th looked at) to the least busy lane, first waiting
    /// for one to have room.
    mutating func submit(_ frame: Image, index: Int, depth: ClipSubjectTracker.LookDepth) async throws {
        while outstanding.min()! >= Self.depth { try await receive() }
        let lane = outstanding.indices.min { outstanding[$0] < outstanding[$1] }!
        outstanding[lane] += 1
        jobs[lane].yield(Job(index: index, frame: frame, depth: depth))
    }

    /// The saliency of the `index`th frame handed out, once its lane has it; throws the network's
    /// error (`SubjectExtractionError`), or `CancellationError` when the task is cancelled.
    mutating func saliency(of index: Int) async throws -> Plane {
        while arrived[index] == nil {
            // A look never handed out would be waited for until cancelled.
            precondition(outstanding.contains { $0 > 0 }, "the look at frame \(index) was never handed to a lane")
            try await receive()
        }
        return try arrived.removeValue(forKey: index)!.get()
    }

    private mutating func receive() async throws {
        // The results' stream ends only when this task is cancelled.
        guard let seen = await results.next(isolation: #isolation) else { throw CancellationError() }
        outstanding[seen.lane] -= 1
        arrived[seen.index] = seen.saliency
    }
}
