import Foundation
import ModelFetching
import Testing
@testable import NeuralNet
#if arch(x86_64)
import NeuralNetBF16
#endif

/// bfloat16 of `x` rounded to nearest, ties to even (what `vcvtne2ps2bf16` does for finite values).
private func bfloat16(_ x: Float) -> UInt16 {
    let bits = x.bitPattern
    return UInt16(truncatingIfNeeded: (bits &+ 0x7FFF &+ ((bits >> 16) & 1)) >> 16)
}

private func float(_ half: UInt16) -> Float { Float(bitPattern: UInt32(half) << 16) }

@Suite struct ReducedPrecisionTests {
    @Test("STICKERS_PRECISION's values: mixed by default, fp32, bf16 everywhere, a list of layers; anything else float")
    func theEnvironmentValuesChooseThePrecision() {
        #expect(ReducedPrecision(environmentValue: nil) == .tolerantLayers)
        #expect(ReducedPrecision(environmentValue: "Mixed") == .tolerantLayers)
        #expect(ReducedPrecision(environmentValue: "fp32") == ReducedPrecision.float)
        #expect(ReducedPrecision(environmentValue: "BF16") == .everyLayer)
        #expect(ReducedPrecision(environmentValue: "bf16:98,111,13-25") == .layers([98...98, 111...111, 13...25]))
        for mistyped in ["bf16:", "bf16:a", "bf16:5-2", "bf16:-3", "fp16", "bf16:1-2-3"] {
            #expect(ReducedPrecision(environmentValue: mistyped) == ReducedPrecision.float, "\(mistyped)")
        }
        #expect(ReducedPrecision.float.key == nil)
        #expect(ReducedPrecision.layers([98...98, 13...25]).key == "bf16:98,13-25")
        #expect(Set([ReducedPrecision.tolerantLayers.key, ReducedPrecision.everyLayer.key]).count == 2)
    }

    @Test("the precision key is nil wherever the default computes in float, the choice's key where it takes BF16")
    func thePrecisionKeyFollowsWhatTheDefaultComputes() {
        #expect(InstructionSet.precisionKey(environment: ["STICKERS_PRECISION": "fp32"]) == nil)
        #expect(InstructionSet.precisionKey(environment: ["STICKERS_KERNELS": "avx2"]) == nil)
        #expect(InstructionSet.precisionKey(environment: ["STICKERS_PRECISION": "bf16", "STICKERS_KERNELS": "portable"]) == nil)
        let bf16CPU = InstructionSet.cpuHasAVX512BF16
        let bf16Default = bf16CPU && ProductsCalibration.bf16Pays
        #expect(InstructionSet.precisionKey(environment: [:]) == (bf16Default ? ReducedPrecision.tolerantLayers.key : nil))
        #expect(InstructionSet.precisionKey(environment: ["STICKERS_PRECISION": "mixed"]) == (bf16CPU ? ReducedPrecision.tolerantLayers.key : nil))
        #expect(InstructionSet.precisionKey(environment: ["STICKERS_PRECISION": "bf16"]) == (bf16CPU ? "bf16" : nil))
    }

    @Test("unset, the precision is the tolerant layers where the CPU's BF16 products pay, else float; set, as asked")
    func theDefaultPrecisionFollowsWhatPaysOnThisCPU() throws {
        #expect(InstructionSet.chosen(by: nil) == (ProductsCalibration.bf16Pays ? .tolerantLayers : ReducedPrecision.float))
        #expect(InstructionSet.chosen(by: " ") == InstructionSet.chosen(by: nil))
        #expect(InstructionSet.chosen(by: "mixed") == .tolerantLayers)
        #expect(InstructionSet.chosen(by: "fp32") == ReducedPrecision.float)
        guard InstructionSet.cpuHasAVX512BF16 else {
            #expect(ProductsCalibration.measure() == nil && !ProductsCalibration.bf16Pays)
            return
        }
        let times = try #require(ProductsCalibration.measure(rounds: 2))
        #expect(times.bf16 > 0 && times.float > 0 && times.bf16.isFinite && times.float.isFinite)
    }

    @Test("U²-Net-p takes BF16 in its table's layers only; every Winograd layer when asked; none in float")
    func theTableChoosesU2NetPsTolerantLayers() async throws {
        let shared = try await TestModel.shared.network()
        let url = try await ModelStore().locateOrFetch()  // there: the shared model was loaded from it
        let model = try Data(contentsOf: url, options: .alwaysMapped)
        let everywhere = try NeuralNetwork(onnx: model, precision: .everyLayer)
        let winograd = everywhere.steps.filter { if case .conv(let c) = $0.operation { c.winograd != nil } else { false } }
        #expect(everywhere.bf16Layers.count == winograd.count)
        // The table's layers that run the Winograd kernel; decoder 2's last convolution (97) in float.
        let tolerant = try NeuralNetwork(onnx: model, precision: .tolerantLayers)
        #expect(Set(tolerant.bf16Layers) == PrecisionTable.u2netp.bf16Layers.intersection(everywhere.bf16Layers))
        #expect(everywhere.bf16Layers.contains(97) && !tolerant.bf16Layers.contains(97))
        #expect(tolerant.bf16Layers.count == everywhere.bf16Layers.count - 1)
        // The shared test model was loaded under STICKERS_PRECISION (unset in tests: the table).
        if InstructionSet.reducedPrecision == .tolerantLayers { #expect(shared.bf16Layers == tolerant.bf16Layers) }
        #expect(try NeuralNetwork(onnx: model, precision: .float).bf16Layers.isEmpty)
        // A listed dilated or narrow convolution (7: dilation 2; 112: one output channel) stays float.
        #expect(try NeuralNetwork(onnx: model, precision: .layers([7...7, 98...98, 112...112])).bf16Layers == [98])
    }

    @Test("a network the tables do not know keeps every product in float by default")
    func anUnknownNetworkStaysFloat() throws {
        var graph = ONNXGraph()
        graph.inputs = [ONNXValueInfo(name: "x", shape: [1, 128, nil, nil])]
        graph.outputs = [ONNXValueInfo(name: "y", shape: [])]
        graph.initializers = [ONNXTensor(name: "w", shape: [64, 128, 3, 3], floats: pseudoRandom([64, 128, 3, 3], seed: 3).scalars)]
        graph.nodes = [ONNXNode(opType: "Conv", inputs: ["x", "w"], outputs: ["y"],
                                attributes: ["pads": ONNXAttribute(name: "pads", ints: [1, 1, 1, 1])])]
        #expect(try NeuralNetwork(model: ONNXModel(graph: graph), precision: .tolerantLayers).bf16Layers.isEmpty)
        #expect(try NeuralNetwork(model: ONNXModel(graph: graph), precision: .everyLayer).bf16Layers == [0])
    }

    #if arch(x86_64)
    @Test("the BF16 packing kernels round to nearest even and lay out pairs of input channels exactly",
          .enabled(if: InstructionSet.cpuHasAVX512BF16))
    func thePackingKernelsAreExact() {
        // Filters: blocks of [C][4] → [⌈C/2⌉][4][2]; odd C pairs the last channel with 0.
        for channels in [1, 3, 4, 7, 16, 33] {
            let blocks = 5
            let u = pseudoRandom([blocks * channels * 4], seed: UInt64(channels)).scalars.map { $0 * 37 }
            let pairs = (channels + 1) / 2
            var out = [UInt16](repeating: 0xFFFF, count: blocks * pairs * 8)
            neuralnet_bf16_pack_filters(u, blocks, channels, &out)
            var expected = [UInt16](repeating: 0, count: out.count)
            for b in 0..<blocks { for c in 0..<channels { for k in 0..<4 {
                expected[((b * pairs + c / 2) * 4 + k) * 2 + c % 2] = bfloat16(u[(b * channels + c) * 4 + k])
            } } }
            #expect(out == expected, "filters, \(channels) channels")
        }
        // Inputs: [C][S] → [⌈C/2⌉][S][2].
        for (channels, slots) in [(1, 16), (5, 48), (16, 96), (33, 144)] {
            let v = pseudoRandom([channels * slots], seed: UInt64(slots)).scalars.map { $0 * 1000 }
            let pairs = (channels + 1) / 2
            var out = [UInt16](repeating: 0xFFFF, count: pairs * slots * 2)
            neuralnet_bf16_pack_inputs(v, channels, slots, &out)
            var expected = [UInt16](repeating: 0, count: out.count)
            for c in 0..<channels { for s in 0..<slots { expected[((c / 2) * slots + s) * 2 + c % 2] = bfloat16(v[c * slots + s]) } }
            #expect(out == expected, "inputs, \(channels) channels × \(slots) slots")
        }
    }

    @Test("the BF16 products kernel sums the bfloat16 products as float does, within float rounding",
          .enabled(if: InstructionSet.cpuHasAVX512BF16))
    func theProductsKernelSumsInFloat() {
        // Given packed bfloat16 inputs the kernel is exact products (8 × 8 significant bits fit a
        // float) summed in float, in pairs: the only error is float's rounding of the sums, stated
        // as ≤ 2⁻²⁰ × C × the largest |product| (measured: well under).
        for (channels, outChannels, slots) in [(3, 4, 48), (16, 16, 96), (64, 64, 48), (33, 8, 144)] {
            let u = pseudoRandom([outChannels * channels], seed: 11).scalars  // [K/4][C][4]
            let v = pseudoRandom([channels * slots], seed: 12).scalars        // [C][S]
            let pairs = (channels + 1) / 2
            var uHalf = [UInt16](repeating: 0, count: outChannels / 4 * pairs * 8)
            var vHalf = [UInt16](repeating: 0, count: pairs * slots * 2)
            neuralnet_bf16_pack_filters(u, outChannels / 4, channels, &uHalf)
            neuralnet_bf16_pack_inputs(v, channels, slots, &vHalf)
            var m = [Float](repeating: .nan, count: outChannels * slots)
            neuralnet_bf16_winograd_products(uHalf, vHalf, &m, slots, channels, outChannels, slots)
            var worst: Float = 0
            for k in 0..<outChannels {
                for s in 0..<slots {
                    var sum = 0.0, largest = 0.0
                    for c in 0..<channels {
                        let product = Double(float(bfloat16(u[(k / 4 * channels + c) * 4 + k % 4]))) * Double(float(bfloat16(v[c * slots + s])))
                        sum += product
                        largest = max(largest, abs(product))
                    }
                    let error = Float(abs(Double(m[k * slots + s]) - sum) / max(largest, 1e-30))
                    worst = max(worst, error)
                }
            }
            #expect(worst <= Float(channels) / Float(1 << 20), "\(channels)→\(outChannels): \(worst) of the largest product")
        }
    }
    #endif
}
