import Foundation
import Testing
@testable import NeuralNet

@Suite struct WholeGraphTests {
    @Test func u2netpMatchesOnnxRuntimeAt64Pixels() async throws {
        let network = try await TestModel.shared.network()
        #expect(network.outputNames.count == 7)
        // The float kernels (the BF16 products are pinned against them in OperatorTests).
        for instructionSet in [InstructionSet.portable, .avx2, .avx512] {
        let outputs = try InferenceSession(network: network, instructionSet: instructionSet)
            .runSerially([network.inputNames[0]: referenceInput(size: 64)])
        for (index, name) in network.outputNames.enumerated() {
            let expected = try Fixtures.floats("u2netp_64_out\(index).bin")
            let actual = try #require(outputs[name])
            #expect(actual.shape == [1, 1, 64, 64])
            let error = maxAbsDifference(actual.scalars, expected)
            #expect(error < 1e-3, "output \(index) (\(name)) differs from ONNX Runtime by \(error) (\(instructionSet))")
        }
        }
    }

    @Test func oddAndDegenerateInputSizesGiveAResultOrAnErrorNeverACrash() async throws {
        let network = try await TestModel.shared.network()
        let session = InferenceSession(network: network)
        let name = network.inputNames[0]
        #expect(throws: ModelError.self) { try session.runSerially([name: Tensor(shape: [1, 3, 0, 0])]) }
        for (h, w) in [(1, 1), (37, 50)] {
            let output = try session.runSerially([name: Tensor(shape: [1, 3, h, w], repeating: 0.5)])[network.outputNames[0]]
            #expect(output?.shape == [1, 1, h, w])
        }
    }

    @Test func resultsAreDeterministicAndIndependentOfTheThreadCount() async throws {
        let network = try await TestModel.shared.network()
        let input = [network.inputNames[0]: referenceInput(size: 96)]
        let serial = InferenceSession(network: network)
        let first = try serial.runSerially(input)
        #expect(try serial.runSerially(input) == first)
        let parallel = InferenceSession(network: network, threads: 2)
        #expect(try await parallel.run(input) == first)
        // Again in the same session, on the buffers the first run recycled.
        #expect(try await parallel.run(input) == first)
    }

    @Test func u2netpMatchesOnnxRuntimeAt320PixelsOnTwoTasks() async throws {
        let network = try await TestModel.shared.network()
        let session = InferenceSession(network: network, threads: 2)
        let outputs = try await session.run([network.inputNames[0]: referenceInput(size: 320)])
        let expected = try Fixtures.floats("u2netp_320_out0.bin")
        let actual = try #require(outputs[network.outputNames[0]])
        #expect(actual.shape == [1, 1, 320, 320])
        let error = maxAbsDifference(actual.scalars, expected)
        #expect(error < 1e-3, "main output differs from ONNX Runtime by \(error)")
    }

    @Test func aSideOutputAloneSkipsTheFinerDecoderStagesOnceTheSessionKnowsTheShapesAndGivesTheSameValues() async throws {
        let network = try await TestModel.shared.network()
        #expect(network.shapesFollowInputShapes)
        let session = InferenceSession(network: network, threads: 2)
        let input = [network.inputNames[0]: referenceInput(size: 96)]
        let all = try await session.run(input)
        let everything = session.stepsRunInLastRun
        let side = network.outputNames[3]
        let alone = try await session.run(input, outputs: [side])
        #expect(alone[side] == all[side])
        // The 80 px side output is resized to the fused output's size, read from the first run:
        // the 160 and 320 px decoder stages (about a third of the steps) are not run.
        #expect(session.stepsRunInLastRun < everything * 3 / 4)
    }
}
