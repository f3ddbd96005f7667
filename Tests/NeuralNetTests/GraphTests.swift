import Foundation
import Testing
@testable import NeuralNet

/// A small graph built in code: x → Conv(3×3) → Relu → Add(x) → Sigmoid, nodes listed out of order.
private func tinyModel(extraNode: ONNXNode? = nil) -> ONNXModel {
    var graph = ONNXGraph()
    graph.inputs = [ONNXValueInfo(name: "x", shape: [1, 1, nil, nil])]
    graph.outputs = [ONNXValueInfo(name: "y", shape: [])]
    graph.initializers = [
        ONNXTensor(name: "w", shape: [1, 1, 3, 3], floats: [0, 0, 0, 0, 2, 0, 0, 0, 0]),
        ONNXTensor(name: "b", shape: [1], floats: [-1]),
    ]
    let pads = ONNXAttribute(name: "pads", ints: [1, 1, 1, 1])
    graph.nodes = [
        ONNXNode(opType: "Sigmoid", inputs: ["sum"], outputs: ["y"]),
        ONNXNode(opType: "Add", inputs: ["r", "x"], outputs: ["sum"]),
        ONNXNode(opType: "Relu", inputs: ["c"], outputs: ["r"]),
        ONNXNode(opType: "Conv", inputs: ["x", "w", "b"], outputs: ["c"], attributes: ["pads": pads]),
    ] + (extraNode.map { [$0] } ?? [])
    return ONNXModel(graph: graph)
}

@Suite struct GraphTests {
    @Test func nodesRunInTopologicalOrderWithReluFusedIntoConv() throws {
        let network = try NeuralNetwork(model: tinyModel())
        #expect(network.inputNames == ["x"])
        #expect(network.outputNames == ["y"])
        #expect(network.steps.count == 3, "Relu should be fused into the Conv")
        let x = try Tensor(shape: [1, 1, 1, 3], scalars: [-1, 0, 2])
        let y = try InferenceSession(network: network).runSerially(["x": x])["y"]
        // conv = 2x − 1 → relu → + x → sigmoid
        let expected = [-1, 0, 2].map { (v: Float) in 1 / (1 + exp(-(max(2 * v - 1, 0) + v))) }
        #expect(maxAbsDifference(try #require(y).scalars, expected) < 1e-6)
    }

    @Test func anUnknownOperatorIsAnErrorNamingIt() {
        let model = tinyModel(extraNode: ONNXNode(opType: "GridSample", inputs: ["x"], outputs: ["z"]))
        #expect {
            _ = try NeuralNetwork(model: model)
        } throws: { error in
            guard case ModelError.unsupported(let message) = error else { return false }
            return message.contains("GridSample")
        }
    }

    @Test func aMissingInputIsAnErrorNamingIt() {
        let model = tinyModel(extraNode: ONNXNode(opType: "Relu", inputs: ["nowhere"], outputs: ["z"]))
        #expect {
            _ = try NeuralNetwork(model: model)
        } throws: { error in
            guard case ModelError.invalidGraph(let message) = error else { return false }
            return message.contains("nowhere")
        }
    }

    @Test func aMissingOrMisshapenInputTensorIsAnError() throws {
        let session = InferenceSession(network: try NeuralNetwork(model: tinyModel()))
        #expect(throws: ModelError.self) { try session.runSerially([:]) }
        #expect(throws: ModelError.self) { try session.runSerially(["x": Tensor(shape: [3])]) }
        #expect(throws: ModelError.self) { try Tensor(shape: [2, 2], scalars: [1, 2, 3]) }
    }

    @Test func bytesThatAreNotAModelAreRejectedWithoutCrashing() {
        #expect(throws: ModelError.self) { try NeuralNetwork(onnx: Data()) }
        #expect(throws: ModelError.self) { try NeuralNetwork(onnx: Data("definitely not protobuf".utf8)) }
        #expect(throws: ModelError.self) { try NeuralNetwork(onnx: Data([0x3A, 0xFF, 0xFF, 0xFF, 0x0F])) }
    }

    @Test func aTruncatedOrAlteredModelFileIsAClearError() async throws {
        guard let url = ModelStore().cachedModelURL(), await TestModel.shared.network() != nil else { return }
        let bytes = try Data(contentsOf: url)
        #expect(throws: ModelError.self) { try NeuralNetwork(onnx: bytes.prefix(bytes.count / 2)) }
        #expect(throws: ModelError.self) { try NeuralNetwork(onnx: bytes.prefix(1000)) }
    }
}

@Suite struct ProtobufReaderTests {
    @Test func readsVarintsPackedAndUnpackedRepeatedFields() throws {
        // field 1 varint 300; field 8 packed [1, 2]; field 8 unpacked 3.
        var reader = ProtobufReader(bytes: [0x08, 0xAC, 0x02, 0x42, 0x02, 0x01, 0x02, 0x40, 0x03])
        var ints: [Int64] = []
        var first: UInt64 = 0
        while let (number, type) = try reader.nextField() {
            if number == 1 { first = try reader.readVarint() } else { try reader.readInt64s(type, into: &ints) }
        }
        #expect(first == 300)
        #expect(ints == [1, 2, 3])
    }

    @Test func aLengthPastTheEndIsMalformed() {
        var reader = ProtobufReader(bytes: [0x0A, 0x05, 0x01])
        #expect(throws: ModelError.self) {
            _ = try reader.nextField()
            _ = try reader.readLengthDelimited()
        }
    }
}
