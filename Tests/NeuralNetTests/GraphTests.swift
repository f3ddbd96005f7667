import Foundation
import ModelFetching
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
    @Test func nodesRunInTopologicalOrderWithReluAndResidualAddFusedIntoConv() throws {
        let network = try NeuralNetwork(model: tinyModel())
        #expect(network.inputNames == ["x"])
        #expect(network.outputNames == ["y"])
        #expect(network.steps.count == 2, "Relu and Add should be fused into the Conv")
        let x = try Tensor(shape: [1, 1, 1, 3], scalars: [-1, 0, 2])
        let y = try InferenceSession(network: network).runSerially(["x": x])["y"]
        // conv = 2x − 1 → relu → + x → sigmoid
        let expected = [-1, 0, 2].map { (v: Float) in 1 / (1 + exp(-(max(2 * v - 1, 0) + v))) }
        #expect(maxAbsDifference(try #require(y).scalars, expected) < 1e-6)
    }

    @Test func askingForOneOutputRunsOnlyWhatItNeedsAndReturnsIt() async throws {
        var graph = ONNXGraph()
        graph.inputs = [ONNXValueInfo(name: "x", shape: [1, 1, nil, nil])]
        graph.outputs = [ONNXValueInfo(name: "fused", shape: []), ONNXValueInfo(name: "side", shape: [])]
        graph.nodes = [
            ONNXNode(opType: "Relu", inputs: ["x"], outputs: ["r"]),
            ONNXNode(opType: "Sigmoid", inputs: ["r"], outputs: ["side"]),
            ONNXNode(opType: "Add", inputs: ["r", "x"], outputs: ["fused"]),
        ]
        let session = InferenceSession(network: try NeuralNetwork(model: ONNXModel(graph: graph)), threads: 2)
        let x = pseudoRandom([1, 1, 5, 7], seed: 51)
        let all = try await session.run(["x": x])
        let fused = try await session.run(["x": x], outputs: ["fused"])
        #expect(Set(all.keys) == ["fused", "side"])
        #expect(Array(fused.keys) == ["fused"])
        #expect(fused["fused"] == all["fused"])
        await #expect(throws: ModelError.self) { try await session.run(["x": x], outputs: ["d7"]) }
    }

    @Test func aTensorReadOnlyForItsShapeIsNotComputedOnceTheSessionHasSeenThatInputShape() async throws {
        let network = try NeuralNetwork(model: ONNXModel(graph: sideOutputGraph()))
        #expect(network.shapesFollowInputShapes)
        let x = pseudoRandom([1, 1, 6, 8], seed: 61)
        // On a network of its own: what it sees is not shared with `session`'s.
        let fresh = InferenceSession(network: try NeuralNetwork(model: ONNXModel(graph: sideOutputGraph())))
        _ = try await fresh.run(["x": x], outputs: ["coarse"])
        let withoutShapes = fresh.stepsRunInLastRun

        let session = InferenceSession(network: network)
        let all = try await session.run(["x": x])
        let coarse = try await session.run(["x": x], outputs: ["coarse"])
        #expect(coarse["coarse"] == all["coarse"])
        #expect(session.stepsRunInLastRun < withoutShapes, "the convolution that makes `fine` should be skipped")
        // Another input size: its shapes are not known, so the convolution runs again.
        let bigger = try await session.run(["x": pseudoRandom([1, 1, 10, 12], seed: 62)], outputs: ["coarse"])
        #expect(bigger["coarse"]?.shape == [1, 1, 10, 12])
        #expect(session.stepsRunInLastRun == withoutShapes)
    }

    @Test func aFreshSessionSkipsATensorReadOnlyForItsShapeOnceAnotherSessionOfTheNetworkHasSeenThatInputShape() async throws {
        let network = try NeuralNetwork(model: ONNXModel(graph: sideOutputGraph()))
        let x = pseudoRandom([1, 1, 6, 8], seed: 64)
        let first = InferenceSession(network: network)
        _ = try await first.run(["x": x], outputs: ["coarse"])
        let withoutShapes = first.stepsRunInLastRun

        // A copy of the network shares what its sessions saw (a clip's lanes copy the predictor).
        let copy = network
        let second = InferenceSession(network: copy, threads: 2)
        let coarse = try await second.run(["x": x], outputs: ["coarse"])
        #expect(second.stepsRunInLastRun < withoutShapes, "the convolution that makes `fine` should be skipped")
        #expect(coarse["coarse"] == (try await InferenceSession(network: network).run(["x": x]))["coarse"])
        // Another input size is not known to any session yet.
        _ = try await InferenceSession(network: network).run(["x": pseudoRandom([1, 1, 10, 12], seed: 65)], outputs: ["coarse"])
        let third = InferenceSession(network: network)
        _ = try await third.run(["x": pseudoRandom([1, 1, 14, 12], seed: 66)], outputs: ["coarse"])
        #expect(third.stepsRunInLastRun == withoutShapes)
    }

    @Test func theShapeMemoKeepsWhatRunsSawByInputShapesAndStartsAgainPastItsCapacity() {
        let memo = ShapeMemo()
        memo.record([3: [1, 4, 6, 8]], for: [[1, 1, 6, 8]])
        memo.record([5: [1, 2, 3, 4]], for: [[1, 1, 6, 8]])
        #expect(memo.shapes(for: [[1, 1, 6, 8]]) == [3: [1, 4, 6, 8], 5: [1, 2, 3, 4]])
        #expect(memo.shapes(for: [[1, 1, 6, 9]]).isEmpty)
        for k in 0..<ShapeMemo.capacity { memo.record([3: [k]], for: [[k + 100]]) }
        // Full with other inputs: it started again, and the newest is kept.
        #expect(memo.shapes(for: [[1, 1, 6, 8]]).isEmpty)
        #expect(memo.shapes(for: [[ShapeMemo.capacity + 99]]) == [3: [ShapeMemo.capacity - 1]])
    }

    @Test func aGraphWithAShapeComputedFromValuesComputesEveryTensorItNeeds() async throws {
        // A second resize whose sizes come from the values of an input, not from a Shape node.
        var graph = sideOutputGraph()
        graph.inputs.append(ONNXValueInfo(name: "wanted", shape: [4]))
        graph.outputs.append(ONNXValueInfo(name: "other", shape: []))
        graph.nodes += [
            ONNXNode(opType: "Cast", inputs: ["wanted"], outputs: ["valueSizes"], attributes: ["to": ONNXAttribute(name: "to", int: 7)]),
            ONNXNode(opType: "Resize", inputs: ["p", "roi", "scales", "valueSizes"], outputs: ["other"], attributes: [
                "mode": ONNXAttribute(name: "mode", string: "linear"),
                "coordinate_transformation_mode": ONNXAttribute(name: "coordinate_transformation_mode", string: "pytorch_half_pixel"),
            ]),
        ]
        let network = try NeuralNetwork(model: ONNXModel(graph: graph))
        #expect(!network.shapesFollowInputShapes)
        let inputs = ["x": pseudoRandom([1, 1, 6, 8], seed: 63), "wanted": try Tensor(shape: [4], scalars: [1, 1, 3, 4])]
        let fresh = InferenceSession(network: network)
        _ = try await fresh.run(inputs, outputs: ["coarse"])
        let session = InferenceSession(network: network)
        let all = try await session.run(inputs)
        let coarse = try await session.run(inputs, outputs: ["coarse"])
        #expect(all["other"]?.shape == [1, 1, 3, 4])
        #expect(coarse["coarse"] == all["coarse"])
        #expect(session.stepsRunInLastRun == fresh.stepsRunInLastRun)
    }

    @Test func aFusedResidualAddGivesTheSameBitsOnOneOrTwoTasksAndForSeveralImages() async throws {
        // U²-Net's residual: Conv → Relu → Add(input), wide enough for the vector path (≥ 32 columns).
        var graph = ONNXGraph()
        graph.inputs = [ONNXValueInfo(name: "x", shape: [nil, 4, nil, nil])]
        graph.outputs = [ONNXValueInfo(name: "y", shape: [])]
        let weights = pseudoRandom([4, 4, 3, 3], seed: 31), bias = pseudoRandom([4], seed: 32)
        graph.initializers = [ONNXTensor(name: "w", shape: weights.shape, floats: weights.scalars),
                              ONNXTensor(name: "b", shape: [4], floats: bias.scalars)]
        graph.nodes = [
            ONNXNode(opType: "Conv", inputs: ["x", "w", "b"], outputs: ["c"], attributes: ["pads": ONNXAttribute(name: "pads", ints: [1, 1, 1, 1])]),
            ONNXNode(opType: "Relu", inputs: ["c"], outputs: ["r"]),
            ONNXNode(opType: "Add", inputs: ["r", "x"], outputs: ["y"]),
        ]
        let network = try NeuralNetwork(model: ONNXModel(graph: graph))
        #expect(network.steps.count == 1)
        let x = pseudoRandom([2, 4, 13, 70], seed: 33)
        var conv = try Convolution(weights: weights, bias: bias.scalars, pads: [1, 1, 1, 1])
        conv.fusedRelu = true
        var scratch = WinogradScratch()
        let convolved = try conv([x], scratch: &scratch)
        let expected = zip(convolved.scalars, x.scalars).map { $0 + $1 }
        let serial = try #require(try InferenceSession(network: network).runSerially(["x": x])["y"])
        let split = try #require(try await InferenceSession(network: network, threads: 2).run(["x": x])["y"])
        #expect(serial.scalars == expected)
        #expect(split.scalars == expected)
    }

    @Test func aConvolutionInputOfTheWrongRankIsAnErrorNotACrash() throws {
        var scratch = WinogradScratch()
        let conv = try Convolution(weights: pseudoRandom([2, 3, 3, 3], seed: 34), bias: nil, pads: [1, 1, 1, 1])
        #expect(throws: ModelError.self) { try conv([Tensor(shape: [3, 8, 8])], scratch: &scratch) }
    }

    @Test func aFusedAddOfAnotherShapeStillBroadcasts() throws {
        var graph = ONNXGraph()
        graph.inputs = [ONNXValueInfo(name: "x", shape: [1, 1, nil, nil])]
        graph.outputs = [ONNXValueInfo(name: "y", shape: [])]
        graph.initializers = [
            ONNXTensor(name: "w", shape: [1, 1, 3, 3], floats: [0, 0, 0, 0, 2, 0, 0, 0, 0]),
            ONNXTensor(name: "k", shape: [1, 1, 1, 1], floats: [0.5]),
        ]
        graph.nodes = [
            ONNXNode(opType: "Conv", inputs: ["x", "w"], outputs: ["c"], attributes: ["pads": ONNXAttribute(name: "pads", ints: [1, 1, 1, 1])]),
            ONNXNode(opType: "Add", inputs: ["k", "c"], outputs: ["y"]),
        ]
        let network = try NeuralNetwork(model: ONNXModel(graph: graph))
        let x = try Tensor(shape: [1, 1, 2, 3], scalars: [-1, 0, 2, 3, 4, 5])
        let y = try #require(try InferenceSession(network: network).runSerially(["x": x])["y"])
        #expect(y.shape == [1, 1, 2, 3])
        #expect(maxAbsDifference(y.scalars, x.scalars.map { 2 * $0 + 0.5 }) < 1e-5)
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
        _ = try await TestModel.shared.network()
        let url = try #require(ModelStore().cachedModelURL())
        let bytes = try Data(contentsOf: url)
        #expect(throws: ModelError.self) { try NeuralNetwork(onnx: bytes.prefix(bytes.count / 2)) }
        #expect(throws: ModelError.self) { try NeuralNetwork(onnx: bytes.prefix(1000)) }
    }
}

/// A U²-Net decoder in miniature: x → MaxPool(2×2, ceil) → Conv → Resize (linear, back to x's
/// size) → Concat with x → Conv → y. Odd sizes exercise the partial pooling window and tiles.
private func decoderModel(height: Int, width: Int) -> ONNXModel {
    var graph = ONNXGraph()
    graph.inputs = [ONNXValueInfo(name: "x", shape: [1, 3, nil, nil])]
    graph.outputs = [ONNXValueInfo(name: "y", shape: [])]
    let down = pseudoRandom([4, 3, 3, 3], seed: 21), up = pseudoRandom([5, 7, 3, 3], seed: 22)
    graph.initializers = [
        ONNXTensor(name: "wd", shape: down.shape, floats: down.scalars),
        ONNXTensor(name: "wu", shape: up.shape, floats: up.scalars),
        ONNXTensor(name: "roi", shape: [0], floats: []),
        ONNXTensor(name: "scales", shape: [0], floats: []),
        ONNXTensor(name: "sizes", shape: [4], ints: [1, 4, Int64(height), Int64(width)]),
    ]
    let pads = ONNXAttribute(name: "pads", ints: [1, 1, 1, 1])
    graph.nodes = [
        ONNXNode(opType: "MaxPool", inputs: ["x"], outputs: ["p"], attributes: [
            "kernel_shape": ONNXAttribute(name: "kernel_shape", ints: [2, 2]),
            "strides": ONNXAttribute(name: "strides", ints: [2, 2]),
            "ceil_mode": ONNXAttribute(name: "ceil_mode", int: 1),
        ]),
        ONNXNode(opType: "Conv", inputs: ["p", "wd"], outputs: ["d"], attributes: ["pads": pads]),
        ONNXNode(opType: "Resize", inputs: ["d", "roi", "scales", "sizes"], outputs: ["u"], attributes: [
            "mode": ONNXAttribute(name: "mode", string: "linear"),
            "coordinate_transformation_mode": ONNXAttribute(name: "coordinate_transformation_mode", string: "pytorch_half_pixel"),
        ]),
        ONNXNode(opType: "Concat", inputs: ["u", "x"], outputs: ["c"], attributes: ["axis": ONNXAttribute(name: "axis", int: 1)]),
        ONNXNode(opType: "Conv", inputs: ["c", "wu"], outputs: ["y"], attributes: ["pads": pads]),
    ]
    return ONNXModel(graph: graph)
}

@Suite struct FusedInputTests {
    @Test func aResizeOrPoolFeedingAConvolutionIsComputedAsItIsReadWithTheSameResult() async throws {
        for (height, width) in [(9, 11), (16, 40), (37, 70)] {
            let network = try NeuralNetwork(model: decoderModel(height: height, width: width))
            let fused = network.steps.filter {
                switch $0.operation {
                case .resize, .maxPool, .concat: true
                default: false
                }
            }
            #expect(fused.isEmpty, "pool, resize and concat should all be read by the convolutions")

            // The same graph op by op, every intermediate tensor materialised.
            let x = pseudoRandom([1, 3, height, width], seed: 23)
            var scratch = WinogradScratch()
            let pooled = try Pooling(kernel: (2, 2), strides: (2, 2), ceilMode: true)(x)
            let down = try Convolution(weights: pseudoRandom([4, 3, 3, 3], seed: 21), bias: nil, pads: [1, 1, 1, 1])([pooled], scratch: &scratch)
            let up = try Resize(mode: .linear, coordinates: .pytorchHalfPixel)(
                down, scales: nil, sizes: IntTensor(shape: [4], scalars: [1, 4, Int64(height), Int64(width)]))
            let expected = try Convolution(weights: pseudoRandom([5, 7, 3, 3], seed: 22), bias: nil, pads: [1, 1, 1, 1])([up, x], scratch: &scratch)

            let serial = try #require(try InferenceSession(network: network).runSerially(["x": x])["y"])
            let split = try #require(try await InferenceSession(network: network, threads: 2).run(["x": x])["y"])
            #expect(serial == expected)
            #expect(split == expected)
        }
    }
}

@Suite struct ProtobufReaderTests {
    @Test func readsVarintsPackedAndUnpackedRepeatedFields() throws {
        // field 1 varint 300; field 8 packed [1, 2]; field 8 unpacked 3.
        let bytes: [UInt8] = [0x08, 0xAC, 0x02, 0x42, 0x02, 0x01, 0x02, 0x40, 0x03]
        var ints: [Int64] = []
        var first: UInt64 = 0
        try bytes.withUnsafeBytes { raw in
            var reader = ProtobufReader(bytes: raw)
            while let (number, type) = try reader.nextField() {
                if number == 1 { first = try reader.readVarint() } else { try reader.readInt64s(type, into: &ints) }
            }
        }
        #expect(first == 300)
        #expect(ints == [1, 2, 3])
    }

    /// A TensorProto of dims [2], fields in the given order: 1 (dims), 2 (data type), 4 (float data
    /// 0.5), 9 (raw data, little-endian bytes).
    private func tensor(_ fields: [Int], raw: [Float] = [1.5, -2], rawBytes: [UInt8]? = nil,
                        dataType: UInt8 = 1) throws -> ONNXTensor {
        var bytes: [UInt8] = []
        for field in fields {
            switch field {
            case 1: bytes += [0x08, 0x02]
            case 2: bytes += [0x10, dataType]
            case 4: bytes += [0x25] + withUnsafeBytes(of: Float(0.5).bitPattern.littleEndian, Array.init)
            case 9:
                let data = rawBytes ?? raw.flatMap { withUnsafeBytes(of: $0.bitPattern.littleEndian, Array.init) }
                bytes += [0x4A, UInt8(data.count)] + data
            default: break
            }
        }
        return try bytes.withUnsafeBytes { raw in
            var reader = ProtobufReader(bytes: raw)
            return try ONNXTensor(reader: &reader)
        }
    }

    private func floats(_ tensor: ONNXTensor) throws -> [Float]? {
        guard case .float(let t) = try tensor.value() else { return nil }
        return t.scalars
    }

    @Test func floatRawDataReadsTheSameBeforeOrAfterItsDataType() throws {
        #expect(try floats(tensor([1, 2, 9])) == [1.5, -2])
        #expect(try floats(tensor([9, 2, 1])) == [1.5, -2])
        #expect(try floats(tensor([1, 9, 2])) == [1.5, -2])
    }

    @Test func rawDataOfTheWrongLengthIsMalformedWhereverItComes() throws {
        for order in [[1, 2, 9], [9, 2, 1]] {
            let odd = try tensor(order, rawBytes: [0, 0, 0x80, 0x3F, 0])  // 5 bytes
            #expect(throws: ModelError.self) { try odd.value() }
            let short = try tensor(order, rawBytes: [0, 0, 0x80, 0x3F])   // one float for two
            #expect(throws: ModelError.self) { try short.value() }
        }
    }

    @Test func aTensorWithBothFloatAndRawDataIsReadWithoutCrashing() throws {
        // Writers set one or the other; given both, the raw bytes (the complete ones) are read.
        #expect(try floats(tensor([1, 2, 4, 9])) == [1.5, -2])
        #expect(throws: ModelError.self) { try tensor([1, 2, 4]).value() }  // one float for shape [2]
    }

    @Test func aLengthPastTheEndIsMalformed() {
        let bytes: [UInt8] = [0x0A, 0x05, 0x01]
        #expect(throws: ModelError.self) {
            try bytes.withUnsafeBytes { raw in
                var reader = ProtobufReader(bytes: raw)
                _ = try reader.nextField()
                _ = try reader.readLengthDelimited()
            }
        }
    }
}

/// x → Conv → Relu → `fine`; x → MaxPool → Resize to `sizes` → `coarse`, where `fineShape` is
/// Shape(Conv's output): U²-Net's side outputs, resized to the size of a finer stage's tensor.
private func sideOutputGraph() -> ONNXGraph {
    var graph = ONNXGraph()
    graph.inputs = [ONNXValueInfo(name: "x", shape: [1, 1, nil, nil])]
    graph.outputs = [ONNXValueInfo(name: "fine", shape: []), ONNXValueInfo(name: "coarse", shape: [])]
    let w = pseudoRandom([1, 1, 3, 3], seed: 60)
    graph.initializers = [
        ONNXTensor(name: "w", shape: w.shape, floats: w.scalars),
        ONNXTensor(name: "roi", shape: [0], floats: []),
        ONNXTensor(name: "scales", shape: [0], floats: []),
    ]
    graph.nodes = [
        ONNXNode(opType: "Conv", inputs: ["x", "w"], outputs: ["c"], attributes: ["pads": ONNXAttribute(name: "pads", ints: [1, 1, 1, 1])]),
        ONNXNode(opType: "Relu", inputs: ["c"], outputs: ["fine"]),
        ONNXNode(opType: "Shape", inputs: ["c"], outputs: ["fineShape"]),
        ONNXNode(opType: "MaxPool", inputs: ["x"], outputs: ["p"], attributes: [
            "kernel_shape": ONNXAttribute(name: "kernel_shape", ints: [2, 2]),
            "strides": ONNXAttribute(name: "strides", ints: [2, 2]),
            "ceil_mode": ONNXAttribute(name: "ceil_mode", int: 1),
        ]),
        ONNXNode(opType: "Resize", inputs: ["p", "roi", "scales", "fineShape"], outputs: ["coarse"], attributes: [
            "mode": ONNXAttribute(name: "mode", string: "linear"),
            "coordinate_transformation_mode": ONNXAttribute(name: "coordinate_transformation_mode", string: "pytorch_half_pixel"),
        ]),
    ]
    return graph
}

