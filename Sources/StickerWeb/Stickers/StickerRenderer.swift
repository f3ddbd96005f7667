import Foundation
import Raster
import StickerKit

/// The PNGs a processed photo is shown and shared as: the sticker itself and the sticker on its
/// gradient. Encoded once per photo, off the main actor; concurrent requests for the same photo
/// (the page asks for both images at once) share one in-flight rendering.
actor StickerRenderer {
    struct Rendered: Sendable {
        var stickerPNG: Data
        var gradientPNG: Data
    }

    private var entries: [UUID: Task<Rendered, any Error>] = [:]

    func rendered(_ photo: ProcessedPhoto, id: UUID) async throws -> Rendered {
        if let task = entries[id] { return try await task.value }
        let task = Task { try await Self.render(photo) }
        entries[id] = task
        do {
            return try await task.value
        } catch {
            entries[id] = nil
            throw error
        }
    }

    func forget(_ ids: some Sequence<UUID>) {
        for id in ids { entries[id] = nil }
    }

    @concurrent private static func render(_ photo: ProcessedPhoto) async throws -> Rendered {
        let sticker = photo.sticker.image
        let gradient = GradientSticker().render(sticker, colors: photo.colorScheme.colors)
        return Rendered(stickerPNG: try ImageEncoder.png(sticker), gradientPNG: try ImageEncoder.png(gradient))
    }
}
