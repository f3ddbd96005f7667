import Foundation
import StickerKit

extension StickerViewModel {
    /// Writes the processed photos, in selection order, as a sticker pack ZIP at `url`
    /// (atomically: an existing pack is replaced only by a complete new one), listing the invalid
    /// photos in its manifest. The pack is assembled from the PNG files each photo was written to
    /// as it finished, read one at a time: no pixels are encoded here.
    public func exportPack(to url: URL) async throws {
        let items = selection.compactMap { photo in
            // A clip's animated sticker goes in the animated packs (`animatedPack(for:)`).
            state(of: photo.id).files.flatMap { $0.isAnimated ? nil : StickerPack.Item(name: photo.name, files: $0) }
        }
        let invalid = selection.compactMap { photo in
            state(of: photo.id).problem.map { StickerPack.InvalidPhoto(name: photo.name, reason: $0.reason) }
        }
        try await Self.write(StickerPack(items: items, invalidPhotos: invalid), to: url)
    }

    @concurrent
    private static func write(_ pack: StickerPack, to url: URL) async throws {
        try pack.write(to: url)
    }
}
