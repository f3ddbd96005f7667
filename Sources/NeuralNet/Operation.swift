/// One graph node, decoded and validated when the model is loaded so running it needs no
/// attribute parsing and an unsupported operator is reported before any inference.
enum Operation: Sendable {
    case constant(Value)
    case identity
    case shape
    case gather(axis: Int)
    case unsqueeze(axes: [Int]?)
    case slice(SliceAttributes?)
    case cast(toFloat: Bool)
    case concat(axis: Int)
    case relu
    case sigmoid
    case binary(BinaryOperator)
    case maxPool(Pooling)
    case resize(Resize)
    case conv(Convolution)

    /// Decodes `node` of the default ONNX domain. `constant` gives the value of an input that is an
    /// initializer (or nil), for operators such as Conv that prepare their weights once.
    init(node: ONNXNode, constant: (String) -> Value?) throws(ModelError) {
        guard node.domain.isEmpty || node.domain == "ai.onnx" else {
            throw .unsupported("operator \(node.domain).\(node.opType) (\(node.label)): only the default ONNX domain is implemented")
        }
        let a = node.attributes
        switch node.opType {
        case "Constant":
            if let t = a["value"]?.tensor { self = .constant(try t.value()) }
            else if let f = a["value_float"]?.float { self = .constant(.float(Tensor(uncheckedShape: [], scalars: [f]))) }
            else if let fs = a["value_floats"]?.floats { self = .constant(.float(Tensor(uncheckedShape: [fs.count], scalars: fs))) }
            else if let i = a["value_int"]?.int { self = .constant(.int(IntTensor(shape: [], scalars: [i]))) }
            else if let v = a["value_ints"] { self = .constant(.int(IntTensor(shape: [v.ints.count], scalars: v.ints))) }
            else { throw .unsupported("\(node.label) has no value attribute this executor reads") }
        case "Identity", "Dropout": self = .identity
        case "Shape": self = .shape
        case "Gather": self = .gather(axis: Int(a["axis"]?.int ?? 0))
        case "Unsqueeze": self = .unsqueeze(axes: a["axes"].map { $0.ints.map { Int($0) } })
        case "Slice":
            if let starts = a["starts"], let ends = a["ends"] {
                self = .slice(SliceAttributes(starts: starts.ints, ends: ends.ints, axes: a["axes"]?.ints))
            } else {
                self = .slice(nil)
            }
        case "Cast":
            let to = a["to"]?.int ?? 0
            switch to {
            case 1, 10, 11: self = .cast(toFloat: true)
            case 2, 3, 4, 5, 6, 7, 9, 12, 13: self = .cast(toFloat: false)
            default: throw .unsupported("\(node.label) casts to ONNX data type \(to)")
            }
        case "Concat":
            guard let axis = a["axis"]?.int else { throw .invalidGraph("\(node.label) has no axis") }
            self = .concat(axis: Int(axis))
        case "Relu": self = .relu
        case "Sigmoid": self = .sigmoid
        case "Add": self = .binary(.add)
        case "Sub": self = .binary(.subtract)
        case "Mul": self = .binary(.multiply)
        case "Div": self = .binary(.divide)
        case "MaxPool": self = .maxPool(try Pooling(node: node))
        case "Resize", "Upsample": self = .resize(try Resize(node: node))
        case "Conv": self = .conv(try Convolution(node: node, constant: constant))
        default:
            throw .unsupported("operator '\(node.opType)' (\(node.label))")
        }
    }
}

enum BinaryOperator: Sendable {
    case add, subtract, multiply, divide
}

/// Slice's bounds when given as attributes (opset < 10); from opset 10 they are inputs.
struct SliceAttributes: Sendable {
    var starts: [Int64]
    var ends: [Int64]
    var axes: [Int64]?
}

extension ONNXNode {
    /// An integer-list attribute of exactly `count` values, or `defaultValue` repeated when absent.
    func ints(_ name: String, count: Int, default defaultValue: Int) throws(ModelError) -> [Int] {
        guard let attribute = attributes[name] else { return Array(repeating: defaultValue, count: count) }
        guard attribute.ints.count == count else {
            throw .unsupported("\(label): attribute \(name) = \(attribute.ints) (expected \(count) values)")
        }
        return attribute.ints.map { Int($0) }
    }

    /// Rejects padding modes other than explicit pads.
    func requireExplicitPadding() throws(ModelError) {
        if let mode = attributes["auto_pad"]?.string, mode != "NOTSET", mode != "VALID" {
            throw .unsupported("\(label): auto_pad \(mode)")
        }
    }
}
