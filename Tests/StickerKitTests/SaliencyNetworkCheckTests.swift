import Foundation
import Raster
import Testing
@testable import StickerKit

/// A file given as the cut-out model (`--model`, `STICKERS_MODEL`) must be a saliency network:
/// anything else is refused when it loads, saying what it is not, instead of making odd stickers.
/// The models are written by scripts/make_test_models.py.
@Suite struct SaliencyNetworkCheckTests {
    private func model(_ name: String) throws -> String {
        try #require(Bundle.module.url(forResource: name, withExtension: "onnx", subdirectory: "Fixtures/models")).path
    }

    private func refusal(_ name: String) async throws -> String? {
        let path = try model(name)
        do {
            _ = try await CutOutModel.load(explicitPath: path)
            return nil
        } catch {
            guard case .unusable(let message) = error else { Issue.record("expected unusable, got \(error)"); return nil }
            return message
        }
    }

    @Test func anIdentityNetworkIsRefusedForItsThreeChannelOutput() async throws {
        let message = try #require(try await refusal("identity"))
        #expect(message.contains("not a U²-Net-style saliency network"))
        #expect(message.contains("1×3×64×64, not 1×1×H×W"))
    }

    @Test func aNetworkWithAOneByOneOutputIsRefusedRatherThanFindingNoSubjectEverywhere() async throws {
        let message = try #require(try await refusal("one-by-one"))
        #expect(message.contains("first output's height is 1, not the input's 64"))
    }

    @Test func anOperatorTheExecutorDoesNotRunIsNamed() async throws {
        let message = try #require(try await refusal("unsupported-operator"))
        #expect(message.contains("Softmax"))
    }

    @Test func aFileThatIsNotONNXAtAllIsRefused() async throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-model-\(UUID().uuidString).onnx")
        try Data("just some text, not a network".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        await #expect(throws: CutOutModelError.self) { _ = try await CutOutModel.load(explicitPath: url.path) }
    }

    @Test func aNetworkWithSaliencyShapesIsAcceptedAndRunsAtItsDeclaredSide() async throws {
        let predictor = try await CutOutModel.load(explicitPath: try model("tiny-saliency"))
        #expect(predictor.inputSide == 64)
        let saliency = try await predictor.saliency(of: Image(width: 100, height: 80, fill: RGBA8(r: 200, g: 10, b: 10)))
        #expect(saliency.width == 64 && saliency.height == 64)
    }

    @Test func symbolicOutputShapesAreHeldToTheSameRuleOnTheFirstRun() async throws {
        let predictor = try await CutOutModel.load(explicitPath: try model("symbolic-output"))
        await #expect(throws: SubjectExtractionError.modelFailed(
            "not a saliency network: its output 'same' has shape 1×3×64×64, not 1×1×64×64")) {
            _ = try await predictor.saliency(of: Image(width: 64, height: 64, fill: RGBA8(r: 1, g: 2, b: 3)))
        }
    }
}
