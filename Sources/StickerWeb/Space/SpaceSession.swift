import Foundation
import SpacePhotos
import StickerApp
import StickerLibrary

/// The space tab's server side: the catalog model, and the hand-over of a saved photo to the
/// sticker tab. Main-actor isolated like the models; handlers `await` into it.
@MainActor
public final class SpaceSession {
    public let model: CatalogModel
    private let stickers: StickerSession
    private var hasLoaded = false

    private let store: StickerLibrary?

    /// - Parameter store: the library that records the saved photos across restarts.
    public init(model: CatalogModel, stickers: StickerSession, store: StickerLibrary? = nil) {
        self.model = model
        self.stickers = stickers
        self.store = store
    }

    /// Remembers which photos were saved before (their files are in the photo folder).
    public func restore() async throws(LibraryError) {
        guard let store else { return }
        let saved = try await store.savedSpacePhotos()
        model.restoreSaved(Dictionary(saved.map { ($0.date, URL(fileURLWithPath: $0.file)) }, uniquingKeysWith: { a, _ in a }))
    }

    func snapshot() -> SpaceSnapshot {
        SpaceSnapshot(
            items: model.items.map { SpaceSnapshot.Item($0, model: model) },
            isLoading: model.isLoading,
            hasLoaded: hasLoaded,
            error: model.error.map { "\($0)" },
            libraryPath: model.libraryFolder.path,
            failedDays: model.failedDays.map { .init(date: $0.day, error: "\($0.error)") },
            favorites: model.favorites.map { SpaceSnapshot.Item($0, model: model) },
            isShowingSeenBefore: model.isShowingSeenBefore,
            firstDay: APODDay.string(from: APODDay.firstDay),
            today: APODDay.string(from: Date())
        )
    }

    /// Loads a fresh set of photos (random, one day, or a range) and waits for it. Fails
    /// (upstream) when the load failed, unless photos seen before could be listed instead; the
    /// photos listed before stay listed.
    func refresh(date: String? = nil, start: String? = nil, end: String? = nil) async throws(WebError) {
        if let date {
            model.selection = .days([try Self.day(date, "date")])
        } else if let start {
            let first = try Self.day(start, "start")
            let last = try end.map { text throws(WebError) in try Self.day(text, "end") } ?? Self.day(Date())
            let days = Int(last.timeIntervalSince(first) / 86_400) + 1
            guard days >= 1, days <= APODClient.maxRangeDays else {
                throw .badRequest("a range runs forwards over 1…\(APODClient.maxRangeDays) days, not \(start)…\(end ?? "today")")
            }
            model.selection = .range(start: first, end: last)
        } else if end != nil {
            throw .badRequest("end needs start")
        }
        await model.refresh()
        hasLoaded = true
        if let error = model.error, !model.isShowingSeenBefore {
            throw .badGateway("the space photo service failed: \(error)")
        }
    }

    /// A day between APOD's first and today (UTC), else a 400 naming the allowed range.
    static func day(_ text: String, _ name: String) throws(WebError) -> Date {
        let today = day(Date())
        guard let day = APODDay.date(from: text), day >= APODDay.firstDay, day <= today else {
            throw .badRequest("\(name) must be a day yyyy-MM-dd from \(APODDay.string(from: APODDay.firstDay)) to \(APODDay.string(from: today)), not \(text)")
        }
        return day
    }

    static func day(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }

    /// Adds the photo (listed or a favourite) to the favourites, or removes it.
    func toggleFavorite(_ id: String) async throws(WebError) {
        guard let photo = model.items.first(where: { $0.id == id }) ?? model.favorites.first(where: { $0.id == id }) else {
            throw .notFound("no space photo with id \(id)")
        }
        await model.toggleFavorite(photo)
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
        let file: URL
        do {
            file = try await model.save(photo, hd: hd)
        } catch {
            switch error {
            case .notSavable(let reason): throw .unprocessable("\(photo.title) cannot be saved: \(reason)")
            case .download: throw .badGateway("\(photo.title) could not be downloaded: \(error)")
            case .write(let path, let reason): throw .insufficientStorage("\(photo.title) could not be written to \(path): \(reason)")
            case .cancelled: throw .conflict("saving \(photo.title) was cancelled")
            }
        }
        do {
            try await store?.saveSpacePhoto(SavedSpacePhoto(date: photo.id, title: photo.title, file: file.path,
                                                            url: photo.imageURL(hd: hd)?.absoluteString))
        } catch {
            throw .insufficientStorage("\(photo.title) was saved to \(file.path), but the library could not record it: \(error)")
        }
    }

    /// Puts a saved photo into the sticker tab and starts processing it.
    func makeSticker(_ id: String) async throws(WebError) -> UUID {
        let photo = try photo(id)
        guard let file = model.savedFiles[photo.id] else {
            throw .conflict("save \(photo.title) to the library first")
        }
        let selected = try await stickers.addFile(file)
        stickers.startProcessing()
        return selected
    }
}
