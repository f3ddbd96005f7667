import Foundation
import StickerKit

/// Turns a photo's bytes into its colour scheme. The seam between `ColorSchemeModel` and the
/// engine, so tests can inject an extractor that decides when the work finishes.
nonisolated public protocol ColorSchemeExtracting: Sendable {
    /// Throws for bytes that are not a usable image.
    func extractColorScheme(from data: Data, count: Int) async throws -> PhotoColorScheme
    /// The colours fitting `mood` (`nil`: the dominant colours, as `extractColorScheme(from:count:)`).
    func extractColorScheme(from data: Data, count: Int, mood: PaletteMood?) async throws -> PhotoColorScheme
}

nonisolated extension ColorSchemeExtracting {
    /// Extractors that know no moods give their dominant colours.
    public func extractColorScheme(from data: Data, count: Int, mood: PaletteMood?) async throws -> PhotoColorScheme {
        try await extractColorScheme(from: data, count: count)
    }
}

/// The real extractor: decodes at reduced scale and runs a `ColorExtractor`, off the caller's actor.
nonisolated public struct PhotoColorSchemeExtractor: ColorSchemeExtracting {
    public init() {}

    /// `@concurrent`: always leaves the main actor, whoever calls it. A fresh `ColorExtractor`
    /// per call, because an extractor's scratch buffers belong to one task.
    @concurrent public func extractColorScheme(from data: Data, count: Int) async throws -> PhotoColorScheme {
        try await extractColorScheme(from: data, count: count, mood: nil)
    }

    @concurrent public func extractColorScheme(from data: Data, count: Int, mood: PaletteMood?) async throws -> PhotoColorScheme {
        do {
            return try ColorExtractor().extractColors(fromImageData: data, count: count, mood: mood)
        } catch {
            throw PhotoProcessingError.unreadable(error)
        }
    }
}
