// Not among the files NeuralNetAVX2 compiles again: that module imports this one for the type, so
// NeuralNet's resize tables can be handed to either module's kernels.

/// One output coordinate of a resize: `value = v[i0]·w0 + v[i1]·w1` (nearest: w0 = 1, w1 = 0).
public struct AxisSample: Sendable, Equatable {
    public var i0: Int
    public var i1: Int
    public var w0: Float
    public var w1: Float

    public init(i0: Int, i1: Int, w0: Float, w1: Float) {
        self.i0 = i0
        self.i1 = i1
        self.w0 = w0
        self.w1 = w1
    }
}
