import Foundation
import SpacePhotos
import StickerApp

/// The space tab's server side: the catalog model, and the hand-over of a saved photo to the
/// sticker tab. Main-actor isolated like the models; handlers `await` into it.
@MainActor
public final class SpaceSession {
    public let model: CatalogModel
    private let stickers: StickerSession
    private var hasLoaded = false

    public init(model: CatalogModel, stickers: StickerSession) {
        self.model = model
        self.stickers = stickers
    }

    func snapshot() -> SpaceSnapshot {
        SpaceSnapshot(
            items: model.items.map { SpaceSnapshot.Item($0, model: model) },
            isLoading: model.isLoading,
            hasLoaded: hasLoaded,
            error: model.error.map { "\($0)" },
            libraryPath: model.libraryFolder.path
        )
    }

    /// Loads a fresh set of photos and waits for it. Fails (upstream) when the load failed; the
    /// photos listed before stay listed.
    func refresh() async throws(WebError) {
        await model.refresh()
        hasLoaded = true
        if let error = model.error { throw .badGateway("the space photo service failed: \(error)") }
    }

    func photo(_ id: String) throws(WebError) -> SpacePhoto {
        guard let photo = model.items.first(where: { $0.id == id }) else {
            throw .notFound("no space photo with id \(id)")
        }
        return photo
    }

    func save(_ id: String, hd: Bool) async throws(WebError) {
        let photo = try photo(id)
        if let reason = photo.unsavableReason { throw .unprocessable("\(photo.title) cannot be saved: \(reason)") }
        do {
            try await model.save(photo, hd: hd)
        } catch {
            switch error {
            case .notSavable(let reason): throw .unprocessable("\(photo.title) cannot be saved: \(reason)")
            case .download: throw .badGateway("\(photo.title) could not be downloaded: \(error)")
            case .write(let message): throw .unprocessable("\(photo.title) could not be written: \(message)")
            case .cancelled: throw .conflict("saving \(photo.title) was cancelled")
            }
        }
    }

    /// Puts a saved photo into the sticker tab and starts processing it.
    func makeSticker(_ id: String) throws(WebError) -> UUID {
        let photo = try photo(id)
        guard let file = model.savedFiles[photo.id] else {
            throw .conflict("save \(photo.title) to the library first")
        }
        let selected = try stickers.addFile(file)
        stickers.startProcessing()
        return selected
    }
}
