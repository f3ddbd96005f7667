import Foundation
import StickerKit

/// Builds the engine-backed photo processor the fronts (CLI, web app) use.
public enum StickerEngine {
    /// The processor that cuts out subjects and extracts `colorCount` colours, its model located
    /// (or fetched once) first. `log` receives one-line notices such as "fetching the model".
    public static func photoProcessor(colorCount: Int, log: @escaping @Sendable (String) -> Void) async throws -> any PhotoProcessing {
        throw PhotoProcessingError.engineFailure("the sticker engine is not built yet")
    }
}
