import Foundation
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
        return PhotoProcessor(subjectExtractor: SubjectExtractor(predictor: predictor, style: style), colorCount: colorCount)
    }
}
