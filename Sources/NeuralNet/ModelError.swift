/// Why a model could not be loaded or run. Every case carries a message meant for a person.
public enum ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a well-formed ONNX protobuf (truncated, corrupt, not ONNX at all).
    case malformed(String)
    /// The graph uses something this executor does not implement (an operator, a data type, an
    /// attribute value); the message names it.
    case unsupported(String)
    /// The graph is inconsistent (an input nobody produces, a cycle, a wrong number of inputs).
    case invalidGraph(String)
    /// The caller's inputs do not fit the graph (missing name, wrong rank or size).
    case invalidInput(String)
    /// Reading a model file failed.
    case unreadable(String)
    /// The running task was cancelled; the run stopped between two layers.
    case cancelled

    public var description: String {
        switch self {
        case .malformed(let m): "malformed ONNX model: \(m)"
        case .unsupported(let m): "unsupported by this ONNX executor: \(m)"
        case .invalidGraph(let m): "invalid ONNX graph: \(m)"
        case .invalidInput(let m): "invalid network input: \(m)"
        case .unreadable(let m): "cannot read model: \(m)"
        case .cancelled: "cancelled"
        }
    }
}
