import Foundation
import NeuralNet
import StickerKit

/// Builds the engine-backed photo processor the fronts (CLI, web app) use.
public enum StickerEngine {
    /// The processor that cuts out subjects and extracts `colorCount` colours, its model located
    /// (or fetched once) first.
    ///
    /// - Parameters:
    ///   - concurrentPhotos: how many photos will be processed at once; the network's own
    ///     parallelism is the cores left per photo, so a batch never oversubscribes the machine.
    ///   - modelPath: an explicit model file (`--model`), overriding `STICKERS_MODEL` and the cache.
    ///   - style: the look of every sticker (outline, shadow, effect).
    ///   - log: receives one-line notices such as "fetching the model".
    public static func photoProcessor(colorCount: Int, concurrentPhotos: Int = 1, modelPath: String? = nil,
                                      style: StickerStyle = StickerStyle(), log: @escaping @Sendable (String) -> Void) async throws(CutOutModelError) -> PhotoProcessor {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let threads = max(1, cores / max(1, concurrentPhotos))
        let predictor = try await CutOutModel.load(explicitPath: modelPath, threads: threads, log: log)
        var processor = PhotoProcessor(subjectExtractor: SubjectExtractor(predictor: predictor, style: style), colorCount: colorCount)
        processor.engineVersion = engineVersion(modelPath: modelPath)
        return processor
    }

    /// Bumped whenever the engine's output changes for the same photo and settings: cached
    /// results of another version are never served.
    nonisolated public static let version = 1

    /// The engine version plus which model: the verified U²-Net-p (known by its digest), or another
    /// file by its path, size and modification time.
    /// Results computed with BF16 products (the default on a CPU with AVX-512 BF16, or as
    /// `STICKERS_PRECISION` chooses) are keyed by that choice, and kernels forced through
    /// `STICKERS_KERNELS` apart too: they give other bits, and are never served to a run that
    /// computes otherwise. Float results keep the key they always had (`STICKERS_PRECISION=fp32` on
    /// a BF16 CPU finds the float results cached before BF16 became the default there).
    nonisolated static func engineVersion(modelPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        var kernels = ""
        if let precision = InstructionSet.precisionKey(environment: environment) { kernels += ";precision=\(precision)" }
        if let forced = environment["STICKERS_KERNELS"]?.lowercased(), !forced.isEmpty { kernels += ";kernels=\(forced)" }
        guard let path = modelPath ?? environment["STICKERS_MODEL"], !path.isEmpty else {
            return "engine-\(version);model=u2netp-309c8469" + kernels
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = attributes?[.size] as? Int64 ?? -1
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "engine-\(version);model=\(path):\(size):\(modified)" + kernels
    }
}
