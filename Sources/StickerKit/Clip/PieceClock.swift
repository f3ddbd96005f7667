/// When each frame a piece of a clip uses shows, and which of the clip's frames it is: by the
/// file's own clock (a GIF's or APNG's delays, a variable-rate video's presentation times) or,
/// without one, evenly at the source's rate. Every `step`-th source frame of the piece is used.
struct PieceClock: Sendable {
    let piece: ClipPiece
    /// Source frames a second (a variable rate's average).
    let sourceRate: Double
    let step: Int
    /// When each of the clip's frames starts (seconds), one more for its end; nil: even timing.
    private(set) var frameStarts: [Double]?
    /// The 0-based index in the clip of the piece's first frame.
    private(set) var firstIndex: Int

    init(piece: ClipPiece, frameStarts: [Double]?, sourceRate: Double, step: Int) {
        self.piece = piece
        self.sourceRate = sourceRate
        self.step = step
        self.frameStarts = frameStarts
        firstIndex = frameStarts.map { piece.firstFrameIndex(frameStarts: $0.dropLast()) }
            ?? piece.firstFrameIndex(framesPerSecond: sourceRate)
    }

    /// Where the piece ends, in seconds of the clip.
    var pieceEnd: Double { piece.seekSeconds + piece.duration }

    /// The 0-based index in the clip of the `k`th frame used (its mask's name).
    func sourceIndex(ofUsed k: Int) -> Int { firstIndex + k * step }

    /// How long the `k`th frame used shows: the source frames it stands for (`step` of them),
    /// by the file's own timing, to the piece's end at most, rounded on the running clock; nil:
    /// even at the rate.
    func milliseconds(ofUsed k: Int) -> Int? {
        guard let starts = frameStarts else {
            // Even: a frame whose time runs past the piece's end shows to the end only (a 0.5 fps
            // clip's 3 s piece holds frames at 0 and 2 s: 2 + 1 s, not 2 + 2 s, which Telegram's
            // 3 s would refuse).
            let end = Double((k + 1) * step) / sourceRate
            guard end > piece.duration + 1e-6 else { return nil }
            return max(1, Int((piece.duration * 1000).rounded()) - Int((Double(k * step) / sourceRate * 1000).rounded()))
        }
        let first = sourceIndex(ofUsed: k)
        guard first < starts.count - 1 else { return nil }
        let end = min(starts[min(first + step, starts.count - 1)], pieceEnd)
        return max(1, Int((end * 1000).rounded()) - Int((starts[first] * 1000).rounded()))
    }

    /// The durations of `count` frames used at `framesPerSecond` (what WebM's constant rate is
    /// chosen for): each frame's own, else even at that rate.
    func durations(count: Int, framesPerSecond: Double) -> [Int] {
        guard frameStarts == nil else { return (0..<count).compactMap(milliseconds(ofUsed:)) }
        let even = FrameDurations.even(count: count, framesPerSecond: framesPerSecond)
        return (0..<count).map { milliseconds(ofUsed: $0) ?? even[$0] }
    }

    /// Keeps the file's clock only when ffmpeg delivered as many of the piece's frames as it lists:
    /// a frame ffmpeg skipped as invalid (or added) would shift every later time and mask name, so
    /// the timing is even then.
    mutating func check(delivered: Int) {
        guard let starts = frameStarts,
              starts.dropLast().indices.filter({ $0 >= firstIndex && starts[$0] < pieceEnd - 1e-6 }).count != delivered else { return }
        frameStarts = nil
        firstIndex = piece.firstFrameIndex(framesPerSecond: sourceRate)
    }
}
