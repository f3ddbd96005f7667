/// Frames cut out in any order (in parallel), handed on in order. A frame whose subject could not
/// be placed (`FrameCutOut.unplaced`) shows the last placed one again, its mask too (an empty
/// frame would blink); those before the first placed one wait for it, and show as they are when
/// none is placed (`finish`).
struct InOrderFrames<Frame> {
    private var arrived: [Int: (frame: Frame, unplaced: Bool)] = [:]
    private var lastPlaced: Frame?
    /// Unplaced frames, in order, before the first placed one.
    private var waiting: [Frame] = []
    /// Frames handed on.
    private(set) var released = 0

    /// Frames taken in order so far: handed on, or waiting for a placed one.
    var settled: Int { released + waiting.count }

    /// Takes the `index`th frame (0-based); returns the frames to hand on now, in order.
    mutating func arrive(_ frame: Frame, index: Int, unplaced: Bool) -> [Frame] {
        arrived[index] = (frame, unplaced)
        var ready: [Frame] = []
        while let next = arrived.removeValue(forKey: settled) {
            guard let shown = next.unplaced ? lastPlaced : next.frame else {
                waiting.append(next.frame)
                continue
            }
            lastPlaced = shown
            ready += Array(repeating: shown, count: waiting.count + 1)
            released += waiting.count + 1
            waiting = []
        }
        return ready
    }

    /// After the last frame: those still waiting (no frame was placed), as they are.
    mutating func finish() -> [Frame] {
        defer { released += waiting.count; waiting = [] }
        return waiting
    }
}
