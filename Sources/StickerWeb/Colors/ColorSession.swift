import Foundation
import StickerApp
import StickerKit
import StickerLibrary

/// The colours tab's server side: one `ColorSchemeModel` for the app, plus the chosen photo's
/// bytes for its preview. Main-actor isolated like the model; handlers `await` into it.
@MainActor
public final class ColorSession {
    public let model: ColorSchemeModel
    private let stickers: StickerSession?
    private let store: StickerLibrary?
    private var photoData: Data?

    /// - Parameters:
    ///   - stickers: lets a photo of the sticker tab be picked here too.
    ///   - store: the library that keeps the history and favourites across restarts.
    public init(model: ColorSchemeModel, stickers: StickerSession? = nil, store: StickerLibrary? = nil) {
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
    private func save(_ record: ColorSchemeRecord) async throws(WebError) {
        do {
            try await store?.saveColorScheme(LibraryColorScheme(
                id: record.id, photoName: record.photoName, colors: record.scheme.colors, colorCount: record.colorCount,
                createdAt: record.date, favoritedAt: model.isFavorite(record.id) ? Date() : nil))
        } catch {
            throw .insufficientStorage("the colour scheme was made, but the library could not keep it: \(error)")
        }
    }

    func snapshot() -> ColorsSnapshot {
        ColorsSnapshot(
            photoName: model.photo?.name,
            colorCount: model.colorCount,
            minColorCount: ColorSchemeModel.colorCountRange.lowerBound,
            maxColorCount: ColorSchemeModel.colorCountRange.upperBound,
            isExtracting: model.isExtracting,
            mood: model.mood?.rawValue,
            moods: PaletteMood.allCases.map(\.rawValue),
            colors: model.scheme.map(ColorsSnapshot.Swatch.all(of:)),
            error: model.errorMessage,
            history: model.history.map { .init($0, isFavorite: model.isFavorite($0.id)) },
            favorites: model.favorites.map { .init($0, isFavorite: true) },
            formats: PaletteFormat.allCases.map(\.rawValue)
        )
    }

    func choose(_ upload: UploadReader.Upload) {
        model.photo = SelectedPhoto(name: upload.name, source: .data(upload.data))
        photoData = upload.data
    }

    /// Picks a photo of the sticker tab by its id.
    func choose(stickerPhoto id: UUID) async throws(WebError) {
        guard let stickers else { throw .notFound("no photo with id \(id.uuidString)") }
        let data = try await stickers.originalData(id)
        let photo = try stickers.photo(id)
        model.photo = SelectedPhoto(name: photo.name, source: .data(data))
        photoData = data
    }

    func chosenPhotoData() throws(WebError) -> Data {
        guard let photoData else { throw .notFound("no photo chosen yet") }
        return photoData
    }

    /// Extracts `count` colours (fitting `mood`, a `PaletteMood` name, when given) from the
    /// chosen photo and waits for the result.
    func extract(count: Int, mood moodName: String? = nil) async throws(WebError) {
        var mood: PaletteMood?
        if let moodName, !moodName.isEmpty {
            guard let known = PaletteMood(rawValue: moodName.lowercased()) else {
                let moods = PaletteMood.allCases.map(\.rawValue).joined(separator: ", ")
                throw .badRequest("unknown mood \(moodName): use one of \(moods)")
            }
            mood = known
        }
        guard ColorSchemeModel.colorCountRange.contains(count) else {
            let range = ColorSchemeModel.colorCountRange
            throw .badRequest("count must be \(range.lowerBound)…\(range.upperBound), not \(count)")
        }
        guard model.photo != nil else { throw .conflict("choose a photo first") }
        model.colorCount = count
        model.mood = mood
        let before = model.history.first?.id
        await model.extractColorScheme()
        if let message = model.errorMessage { throw .unprocessable(message) }
        if let latest = model.history.first, latest.id != before { try await save(latest) }
    }

    func toggleFavorite(_ id: UUID) async throws(WebError) {
        guard let record = model.history.first(where: { $0.id == id }) ?? model.favorites.first(where: { $0.id == id }) else {
            throw .notFound("no colour scheme with id \(id.uuidString)")
        }
        model.toggleFavorite(record)
        try await save(record)
    }

    /// The latest scheme, or the record `id`'s, in `formatName`; with a file name for it.
    func export(formatName: String, record id: UUID?) throws(WebError) -> (data: Data, fileName: String, format: PaletteFormat) {
        guard let format = PaletteFormat(rawValue: formatName.lowercased()) else {
            let known = PaletteFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw .badRequest("unknown format \(formatName): use one of \(known)")
        }
        var record: ColorSchemeRecord?
        if let id {
            guard let found = model.history.first(where: { $0.id == id }) ?? model.favorites.first(where: { $0.id == id }) else {
                throw .notFound("no colour scheme with id \(id.uuidString)")
            }
            record = found
        }
        guard let data = model.export(format, record: record) else {
            throw .conflict("no colour scheme to export yet: extract one first")
        }
        let name = (record ?? model.history.first)?.photoName ?? "palette"
        return (data, "\(name).\(format.fileExtension)", format)
    }
}
