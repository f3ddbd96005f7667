import Foundation
import StickerKit
import StickerLibrary

/// Everything the Colours tab does, free of HTTP: one `ColorSchemeModel` for the app, the chosen
/// photo's bytes for its preview, and the history and favourites kept in the library.
/// Main-actor isolated like the model; a front (the web app's routes) `await`s into it.
@MainActor
public final class ColorsService {
    public let model: ColorSchemeModel
    private let stickers: StickersService?
    private let store: StickerLibrary?
    private var photoData: Data?

    /// - Parameters:
    ///   - stickers: lets a photo of the sticker tab be picked here too.
    ///   - store: the library that keeps the history and favourites across restarts.
    public init(model: ColorSchemeModel, stickers: StickersService? = nil, store: StickerLibrary? = nil) {
        self.model = model
        self.stickers = stickers
        self.store = store
    }

    /// Shows the history and favourites kept in the library.
    public func restore() async throws(LibraryError) {
        guard let store else { return }
        let (history, favorites) = try await store.colorSchemes(limit: model.historyLimit)
        func record(_ row: LibraryColorScheme) -> ColorSchemeRecord {
            ColorSchemeRecord(id: row.id, photoName: row.photoName, scheme: PhotoColorScheme(colors: row.colors),
                              colorCount: row.colorCount, date: row.createdAt)
        }
        model.restore(history: history.map(record), favorites: favorites.map(record))
    }

    /// Keeps `record` in the library; a failure says why (the page shows it), the scheme stays on screen.
    private func save(_ record: ColorSchemeRecord) async throws(ServiceError) {
        do {
            try await store?.saveColorScheme(LibraryColorScheme(
                id: record.id, photoName: record.photoName, colors: record.scheme.colors, colorCount: record.colorCount,
                createdAt: record.date, favoritedAt: model.isFavorite(record.id) ? Date() : nil))
        } catch {
            throw .notKept("the colour scheme was made, but the library could not keep it: \(error)")
        }
    }

    public func choose(_ upload: StickersService.Upload) {
        model.photo = SelectedPhoto(name: upload.name, source: .data(upload.data))
        photoData = upload.data
    }

    /// Picks a photo of the sticker tab by its id.
    public func choose(stickerPhoto id: UUID) async throws(ServiceError) {
        guard let stickers else { throw .notFound("no photo with id \(id.uuidString)") }
        let data = try await stickers.originalData(id)
        let photo = try stickers.photo(id)
        model.photo = SelectedPhoto(name: photo.name, source: .data(data))
        photoData = data
    }

    public func chosenPhotoData() throws(ServiceError) -> Data {
        guard let photoData else { throw .notFound("no photo chosen yet") }
        return photoData
    }

    /// Extracts `count` colours (fitting `mood`, a `PaletteMood` name, when given) from the
    /// chosen photo and waits for the result.
    public func extract(count: Int, mood moodName: String? = nil) async throws(ServiceError) {
        var mood: PaletteMood?
        if let moodName, !moodName.isEmpty {
            guard let known = PaletteMood(rawValue: moodName.lowercased()) else {
                let moods = PaletteMood.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidRequest("unknown mood \(moodName): use one of \(moods)")
            }
            mood = known
        }
        guard ColorSchemeModel.colorCountRange.contains(count) else {
            let range = ColorSchemeModel.colorCountRange
            throw .invalidRequest("count must be \(range.lowerBound)…\(range.upperBound), not \(count)")
        }
        guard model.photo != nil else { throw .notReady("choose a photo first") }
        model.colorCount = count
        model.mood = mood
        let before = model.history.first?.id
        await model.extractColorScheme()
        if let message = model.errorMessage { throw .unusable(message) }
        if let latest = model.history.first, latest.id != before { try await save(latest) }
    }

    public func toggleFavorite(_ id: UUID) async throws(ServiceError) {
        guard let record = model.history.first(where: { $0.id == id }) ?? model.favorites.first(where: { $0.id == id }) else {
            throw .notFound("no colour scheme with id \(id.uuidString)")
        }
        model.toggleFavorite(record)
        try await save(record)
    }

    /// The latest scheme, or the record `id`'s, in `formatName`; with a file name for it.
    public func export(formatName: String, record id: UUID?) throws(ServiceError) -> (data: Data, fileName: String, format: PaletteFormat) {
        guard let format = PaletteFormat(rawValue: formatName.lowercased()) else {
            let known = PaletteFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidRequest("unknown format \(formatName): use one of \(known)")
        }
        var record: ColorSchemeRecord?
        if let id {
            guard let found = model.history.first(where: { $0.id == id }) ?? model.favorites.first(where: { $0.id == id }) else {
                throw .notFound("no colour scheme with id \(id.uuidString)")
            }
            record = found
        }
        guard let data = model.export(format, record: record) else {
            throw .notReady("no colour scheme to export yet: extract one first")
        }
        let name = (record ?? model.history.first)?.photoName ?? "palette"
        return (data, "\(name).\(format.fileExtension)", format)
    }
}
