import Synchronization

/// The shapes of the tensors a network's Shape steps read, by the network's input shapes: what
/// one session's run saw, for every session of that network (its copies share one memo). A clip's
/// looks run in fresh one-thread sessions (`LookLanes` in StickerKit); without it, each one's first
/// coarse look computed U²-Net-p's two full-resolution decoder stages only to learn the size its
/// side output is resized to: 307 ms of CPU against 122 ms in a fresh session after another's
/// run (`stickers-bench looks`).
/// Sound only where `NeuralNetwork.shapesFollowInputShapes`: then the shapes are a function of
/// the input shapes.
final class ShapeMemo: Sendable {
    /// Input shapes seen at most (a photo's looks use one, a clip's one; the memo starts again
    /// rather than grow without bound when inputs of many shapes come).
    static let capacity = 8
    private let entries = Mutex<[[[Int]]: [Int: [Int]]]>([:])

    /// The shapes known for these input shapes (empty when none is).
    func shapes(for inputs: [[Int]]) -> [Int: [Int]] {
        entries.withLock { $0[inputs] ?? [:] }
    }

    /// Adds what a run at these input shapes saw.
    func record(_ shapes: [Int: [Int]], for inputs: [[Int]]) {
        guard !shapes.isEmpty else { return }
        entries.withLock { known in
            if known[inputs] == nil, known.count >= Self.capacity { known.removeAll() }
            known[inputs, default: [:]].merge(shapes) { _, seen in seen }
        }
    }
}
