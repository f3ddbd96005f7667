import Foundation
import SpacePhotos
import StickerLibrary

/// Everything the Space tab does, free of HTTP: the catalog model, the saved photos recorded in
/// the library, and the hand-over of a saved photo to the Stickers tab. Main-actor isolated like
/// the models; a front (the web app's routes) `await`s into it.
@MainActor
public final class SpaceService {
    public let model: CatalogModel
    private let stickers: StickersService
    /// Whether a load was asked for since the app started.
    public private(set) var hasLoaded = false

    private let store: StickerLibrary?

    /// - Parameter store: the library that records the saved photos across restarts.
    public init(model: CatalogModel, stickers: StickersService, store: StickerLibrary? = nil) {
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

    /// Loads a fresh set of photos (random, one day, or a range) and waits for it. Fails
    /// (upstream) when the load failed, unless photos seen before could be listed instead; the
    /// photos listed before stay listed.
    public func refresh(date: String? = nil, start: String? = nil, end: String? = nil) async throws(ServiceError) {
        if let date {
            model.selection = .days([try Self.day(date, "date")])
        } else if let start {
            let first = try Self.day(start, "start")
            let last = try end.map { text throws(ServiceError) in try Self.day(text, "end") } ?? Self.day(Date())
            let days = Int(last.timeIntervalSince(first) / 86_400) + 1
            guard days >= 1, days <= APODClient.maxRangeDays else {
                throw .invalidRequest("a range runs forwards over 1…\(APODClient.maxRangeDays) days, not \(start)…\(end ?? "today")")
            }
            model.selection = .range(start: first, end: last)
        } else if end != nil {
            throw .invalidRequest("end needs start")
        }
        await model.refresh()
        hasLoaded = true
        if let error = model.error, !model.isShowingSeenBefore {
            throw .upstreamFailed("the space photo service failed: \(error)")
        }
    }

    /// A day between APOD's first and today (UTC), else a 400 naming the allowed range.
    public static func day(_ text: String, _ name: String) throws(ServiceError) -> Date {
        let today = day(Date())
        guard let day = APODDay.date(from: text), day >= APODDay.firstDay, day <= today else {
            throw .invalidRequest("\(name) must be a day yyyy-MM-dd from \(APODDay.string(from: APODDay.firstDay)) to \(APODDay.string(from: today)), not \(text)")
        }
        return day
    }

    public static func day(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }

    /// Adds the photo (listed or a favourite) to the favourites, or removes it.
    public func toggleFavorite(_ id: String) async throws(ServiceError) {
        guard let photo = model.items.first(where: { $0.id == id }) ?? model.favorites.first(where: { $0.id == id }) else {
            throw .notFound("no space photo with id \(id)")
        }
        await model.toggleFavorite(photo)
    }

    public func photo(_ id: String) throws(ServiceError) -> SpacePhoto {
        guard let photo = model.items.first(where: { $0.id == id }) else {
            throw .notFound("no space photo with id \(id)")
        }
        return photo
    }

    public func save(_ id: String, hd: Bool) async throws(ServiceError) {
        let photo = try photo(id)
        if let reason = photo.unsavableReason { throw .unusable("\(photo.title) cannot be saved: \(reason)") }
        let file: URL
        do {
            file = try await model.save(photo, hd: hd)
        } catch {
            switch error {
            case .notSavable(let reason): throw .unusable("\(photo.title) cannot be saved: \(reason)")
            case .download: throw .upstreamFailed("\(photo.title) could not be downloaded: \(error)")
            case .write(let path, let reason): throw .notKept("\(photo.title) could not be written to \(path): \(reason)")
            case .cancelled: throw .notReady("saving \(photo.title) was cancelled")
            }
        }
        do {
            try await store?.saveSpacePhoto(SavedSpacePhoto(date: photo.id, title: photo.title, file: file.path,
                                                            url: photo.imageURL(hd: hd)?.absoluteString))
        } catch {
            throw .notKept("\(photo.title) was saved to \(file.path), but the library could not record it: \(error)")
        }
    }

    /// Puts a saved photo into the sticker tab and starts processing it.
    public func makeSticker(_ id: String) async throws(ServiceError) -> UUID {
        let photo = try photo(id)
        guard let file = model.savedFiles[photo.id] else {
            throw .notReady("save \(photo.title) to the library first")
        }
        let selected = try await stickers.addFile(file)
        stickers.startProcessing()
        return selected
    }
}
