import Foundation
import StickerKit

extension StickerViewModel {
    /// Writes the processed photos and clips, in selection order, as a sticker pack ZIP at `url`
    /// (atomically: an existing pack is replaced only by a complete new one), listing the invalid
    /// photos in its manifest. A clip is its animated sticker (`NAME.sticker.webp`, the one its
    /// card plays). The pack is assembled from the files each photo was written to as it
    /// finished, read one at a time: no pixels are encoded here. `adding`: stickers made apart
    /// from the model (`make`'s clips), after its own.
    public func exportPack(to url: URL, adding extra: [StickerPack.Item] = []) async throws {
        let items = selection.compactMap { photo in
            state(of: photo.id).files.map { StickerPack.Item(name: photo.name, files: $0) }
        } + extra
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
