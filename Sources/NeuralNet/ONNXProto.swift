// The parts of onnx.proto this executor reads, decoded from the wire format. Field numbers are
// those of onnx/onnx.proto (IR version 3+). Anything else in the file is skipped.

struct ONNXModel: Sendable {
    var irVersion: Int64 = 0
    /// Operator set versions by domain ("" is the default ONNX domain).
    var opsets: [String: Int64] = [:]
    var graph = ONNXGraph()

    init(graph: ONNXGraph) {
        self.graph = graph
    }

    /// Decodes a model file's bytes, keeping copies of what it needs (not the bytes themselves).
    init(bytes: UnsafeRawBufferPointer) throws(ModelError) {
        var reader = ProtobufReader(bytes: bytes)
        var sawGraph = false
        while let (number, type) = try reader.nextField() {
            switch (number, type) {
            case (1, .varint): irVersion = try reader.readInt64()
            case (7, .lengthDelimited):
                var sub = try reader.readMessage()
                graph = try ONNXGraph(reader: &sub)
                sawGraph = true
            case (8, .lengthDelimited):
                var sub = try reader.readMessage()
                var domain = "", version: Int64 = 0
                while let (n, t) = try sub.nextField() {
                    switch (n, t) {
                    case (1, .lengthDelimited): domain = try sub.readString()
                    case (2, .varint): version = try sub.readInt64()
                    default: try sub.skip(t)
                    }
                }
                opsets[domain] = version
            default: try reader.skip(type)
            }
        }
        guard sawGraph else { throw .malformed("no graph in the model (is this an ONNX file?)") }
    }
}

struct ONNXGraph: Sendable {
    var nodes: [ONNXNode] = []
    var initializers: [ONNXTensor] = []
    var inputs: [ONNXValueInfo] = []
    var outputs: [ONNXValueInfo] = []

    init() {}

    init(reader: inout ProtobufReader) throws(ModelError) {
        while let (number, type) = try reader.nextField() {
            switch (number, type) {
            case (1, .lengthDelimited):
                var sub = try reader.readMessage()
                nodes.append(try ONNXNode(reader: &sub))
            case (5, .lengthDelimited):
                var sub = try reader.readMessage()
                initializers.append(try ONNXTensor(reader: &sub))
            case (11, .lengthDelimited):
                var sub = try reader.readMessage()
                inputs.append(try ONNXValueInfo(reader: &sub))
            case (12, .lengthDelimited):
                var sub = try reader.readMessage()
                outputs.append(try ONNXValueInfo(reader: &sub))
            default: try reader.skip(type)
            }
        }
    }
}

struct ONNXNode: Sendable {
    var inputs: [String] = []
    var outputs: [String] = []
    var name = ""
    var opType = ""
    var domain = ""
    var attributes: [String: ONNXAttribute] = [:]

    init(opType: String, inputs: [String], outputs: [String], attributes: [String: ONNXAttribute] = [:]) {
        self.opType = opType
        self.inputs = inputs
        self.outputs = outputs
        self.attributes = attributes
    }

    init(reader: inout ProtobufReader) throws(ModelError) {
        while let (number, type) = try reader.nextField() {
            switch (number, type) {
            case (1, .lengthDelimited): inputs.append(try reader.readString())
            case (2, .lengthDelimited): outputs.append(try reader.readString())
            case (3, .lengthDelimited): name = try reader.readString()
            case (4, .lengthDelimited): opType = try reader.readString()
            case (7, .lengthDelimited): domain = try reader.readString()
            case (5, .lengthDelimited):
                var sub = try reader.readMessage()
                let attribute = try ONNXAttribute(reader: &sub)
                attributes[attribute.name] = attribute
            default: try reader.skip(type)
            }
        }
    }

    /// How errors name this node: its name if it has one, else its first output.
    var label: String { "\(opType) node '\(name.isEmpty ? (outputs.first ?? "?") : name)'" }
}

struct ONNXAttribute: Sendable {
    var name = ""
    var float: Float?
    var int: Int64?
    var string: String?
    var tensor: ONNXTensor?
    var floats: [Float] = []
    var ints: [Int64] = []

    init(name: String, int: Int64? = nil, ints: [Int64] = [], float: Float? = nil, string: String? = nil,
         tensor: ONNXTensor? = nil) {
        self.name = name
        self.int = int
        self.ints = ints
        self.float = float
        self.string = string
        self.tensor = tensor
    }

    init(reader: inout ProtobufReader) throws(ModelError) {
        while let (number, type) = try reader.nextField() {
            switch (number, type) {
            case (1, .lengthDelimited): name = try reader.readString()
            case (2, .fixed32): float = try reader.readFloat()
            case (3, .varint): int = try reader.readInt64()
            case (4, .lengthDelimited): string = try reader.readString()
            case (5, .lengthDelimited):
                var sub = try reader.readMessage()
                tensor = try ONNXTensor(reader: &sub)
            case (7, _): try reader.readFloats(type, into: &floats)
            case (8, _): try reader.readInt64s(type, into: &ints)
            default: try reader.skip(type)
            }
        }
    }
}

/// A TensorProto: an initializer or a Constant's value.
struct ONNXTensor: Sendable {
    enum DataType: Int64 {
        case float = 1, uint8 = 2, int8 = 3, int32 = 6, int64 = 7, bool = 9, double = 11
    }

    var name = ""
    var dims: [Int64] = []
    var dataType: Int64 = 0
    var floatData: [Float] = []
    var int64Data: [Int64] = []
    var int32Data: [Int64] = []
    var doubleData: [Double] = []
    /// Raw little-endian values, except a float tensor's, which go to `floatData` as they are read
    /// (one copy, straight from the file's bytes) when the data type came first, as writers order it.
    var rawData: [UInt8] = []
    var isExternal = false

    /// A float initializer (for tests and graphs built in code).
    init(name: String, shape: [Int], floats: [Float]) {
        self.name = name
        self.dims = shape.map { Int64($0) }
        self.dataType = DataType.float.rawValue
        self.floatData = floats
    }

    /// An int64 tensor.
    init(name: String, shape: [Int], ints: [Int64]) {
        self.name = name
        self.dims = shape.map { Int64($0) }
        self.dataType = DataType.int64.rawValue
        self.int64Data = ints
    }

    init(reader: inout ProtobufReader) throws(ModelError) {
        while let (number, type) = try reader.nextField() {
            switch (number, type) {
            case (1, _): try reader.readInt64s(type, into: &dims)
            case (2, .varint): dataType = try reader.readInt64()
            case (4, _): try reader.readFloats(type, into: &floatData)
            case (5, _): try reader.readInt64s(type, into: &int32Data)
            case (7, _): try reader.readInt64s(type, into: &int64Data)
            case (8, .lengthDelimited): name = try reader.readString()
            case (9, .lengthDelimited):
                let raw = try reader.readBytes()
                if dataType == DataType.float.rawValue && floatData.isEmpty && raw.count % 4 == 0 {
                    // ONNX stores raw data little-endian, as every CPU we run on is: a plain copy.
                    floatData = [Float](unsafeUninitializedCapacity: raw.count / 4) { out, initialized in
                        UnsafeMutableRawBufferPointer(out).copyMemory(from: raw)
                        initialized = raw.count / 4
                    }
                } else {
                    rawData = [UInt8](raw)
                }
            case (10, .lengthDelimited):
                var packed = try reader.readMessage()
                while !packed.isAtEnd { doubleData.append(Double(bitPattern: try packed.readFixed64())) }
            case (10, .fixed64): doubleData.append(Double(bitPattern: try reader.readFixed64()))
            case (14, .varint): isExternal = try reader.readVarint() == 1
            default: try reader.skip(type)
            }
        }
    }

    /// The value as a graph value: float types become `Tensor`, integer types `IntTensor`.
    func value() throws(ModelError) -> Value {
        guard !isExternal else { throw .unsupported("tensor '\(name)' stores its data in an external file") }
        guard dims.allSatisfy({ $0 >= 0 && $0 < (1 << 31) }) else {
            throw .malformed("tensor '\(name)' has dimensions \(dims)")
        }
        let shape = dims.map { Int($0) }
        let (count, overflow) = shape.reduce((1, false)) { acc, d in
            let (p, o) = acc.0.multipliedReportingOverflow(by: d); return (p, acc.1 || o)
        }
        guard !overflow else { throw .malformed("tensor '\(name)' is too large") }
        guard let type = DataType(rawValue: dataType) else {
            throw .unsupported("tensor '\(name)' has ONNX data type \(dataType)")
        }
        switch type {
        case .float:
            let values: [Float]
            if !rawData.isEmpty {
                guard rawData.count == count * 4 else { throw .malformed("tensor '\(name)': \(rawData.count) bytes for \(count) floats") }
                // ONNX stores raw data little-endian, as every CPU we run on is: a plain copy.
                values = rawData.withUnsafeBytes { raw in
                    [Float](unsafeUninitializedCapacity: count) { out, initialized in
                        UnsafeMutableRawBufferPointer(out).copyMemory(from: raw)
                        initialized = count
                    }
                }
            } else {
                values = floatData
            }
            guard values.count == count else { throw .malformed("tensor '\(name)': \(values.count) floats for shape \(shape)") }
            return .float(Tensor(uncheckedShape: shape, scalars: values))
        case .double:
            let values: [Float]
            if !rawData.isEmpty {
                guard rawData.count == count * 8 else { throw .malformed("tensor '\(name)': \(rawData.count) bytes for \(count) doubles") }
                values = rawData.withUnsafeBytes { raw in (0..<count).map { Float(Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)))) } }
            } else {
                values = doubleData.map { Float($0) }
            }
            guard values.count == count else { throw .malformed("tensor '\(name)': \(values.count) doubles for shape \(shape)") }
            return .float(Tensor(uncheckedShape: shape, scalars: values))
        case .int64, .int32, .int8, .uint8, .bool:
            let width = switch type { case .int64: 8; case .int32: 4; default: 1 }
            var values: [Int64]
            if !rawData.isEmpty {
                guard rawData.count == count * width else { throw .malformed("tensor '\(name)': \(rawData.count) bytes for \(count) integers") }
                values = rawData.withUnsafeBytes { raw in
                    (0..<count).map { i -> Int64 in
                        switch type {
                        case .int64: Int64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: Int64.self))
                        case .int32: Int64(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: i * 4, as: Int32.self)))
                        case .int8: Int64(Int8(bitPattern: raw[i]))
                        default: Int64(raw[i])
                        }
                    }
                }
            } else {
                values = type == .int64 ? int64Data : int32Data
            }
            guard values.count == count else { throw .malformed("tensor '\(name)': \(values.count) integers for shape \(shape)") }
            return .int(IntTensor(shape: shape, scalars: values))
        }
    }
}

struct ONNXValueInfo: Sendable {
    var name = ""
    /// Dimensions; nil where the file gives a symbolic or no size.
    var shape: [Int?] = []

    init(name: String, shape: [Int?]) {
        self.name = name
        self.shape = shape
    }

    init(reader: inout ProtobufReader) throws(ModelError) {
        while let (number, type) = try reader.nextField() {
            switch (number, type) {
            case (1, .lengthDelimited): name = try reader.readString()
            case (2, .lengthDelimited):
                // TypeProto.tensor_type(1) → Tensor.shape(2) → TensorShapeProto.dim(1) → dim_value(1)
                var typeProto = try reader.readMessage()
                while let (n, t) = try typeProto.nextField() {
                    guard n == 1, t == .lengthDelimited else { try typeProto.skip(t); continue }
                    var tensorType = try typeProto.readMessage()
                    while let (n2, t2) = try tensorType.nextField() {
                        guard n2 == 2, t2 == .lengthDelimited else { try tensorType.skip(t2); continue }
                        var shapeProto = try tensorType.readMessage()
                        while let (n3, t3) = try shapeProto.nextField() {
                            guard n3 == 1, t3 == .lengthDelimited else { try shapeProto.skip(t3); continue }
                            var dim = try shapeProto.readMessage()
                            var size: Int?
                            while let (n4, t4) = try dim.nextField() {
                                if n4 == 1, t4 == .varint { size = Int(truncatingIfNeeded: try dim.readInt64()) } else { try dim.skip(t4) }
                            }
                            shape.append(size)
                        }
                    }
                }
            default: try reader.skip(type)
            }
        }
    }
}
