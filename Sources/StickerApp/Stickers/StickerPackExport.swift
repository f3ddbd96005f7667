import Foundation
import Raster
import StickerKit

extension StickerViewModel {
    /// Writes the processed photos, in selection order, as a sticker pack ZIP at `url`
    /// (atomically), listing the invalid photos in its manifest. The PNGs are encoded off the
    /// main actor, in parallel.
    public func exportPack(to url: URL, style: GradientSticker = GradientSticker()) async throws {
        let done = selection.compactMap { photo in processedPhotos[photo.id].map { (photo.name, $0) } }
        let invalid = selection.compactMap { photo in
            invalidPhotos[photo.id].map { StickerPack.InvalidPhoto(name: photo.name, reason: $0.reason) }
        }
        try await Self.writePack(done, invalid: invalid, style: style, to: url)
    }

    @concurrent
    private static func writePack(_ photos: [(String, ProcessedPhoto)], invalid: [StickerPack.InvalidPhoto],
                                  style: GradientSticker, to url: URL) async throws {
        // At most one encoding per core at a time: each holds a gradient canvas and PNG buffers.
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let items = try await withThrowingTaskGroup(of: (Int, StickerPack.Item).self) { group in
            var pending = photos.enumerated().makeIterator()
            func addNext(_ group: inout ThrowingTaskGroup<(Int, StickerPack.Item), any Error>) {
                guard let (index, (name, photo)) = pending.next() else { return }
                group.addTask {
                    let gradient = style.render(photo.sticker.image, colors: photo.colorScheme.colors)
                    let item = StickerPack.Item(
                        name: name,
                        stickerPNG: try ImageEncoder.png(photo.sticker.image),
                        gradientPNG: try ImageEncoder.png(gradient),
                        colorScheme: photo.colorScheme
                    )
                    return (index, item)
                }
            }
            for _ in 0..<width { addNext(&group) }
            var items: [(Int, StickerPack.Item)] = []
            while let item = try await group.next() {
                items.append(item)
                addNext(&group)
            }
            return items.sorted { $0.0 < $1.0 }.map(\.1)
        }
        try StickerPack(items: items, invalidPhotos: invalid).write(to: url)
    }
}
