import AtomicFiles
import Foundation
import Observation
import StickerKit

/// The colour-scheme app's state: a photo, how many colours to find, the scheme found, the history
/// of schemes (newest first) and the favourites, and exports in the palette formats.
///
/// Main-actor isolated (the module's default). `extractColorScheme()` marks `isExtracting`
/// synchronously before its first `await`, so a UI shows the loading state at once; the decoding
/// and clustering run off the main actor in the extractor (`@concurrent`); the results are stored
/// here, on the main actor, right after the `await` returns.
@Observable
public final class ColorSchemeModel {
    /// Palette sizes on offer.
    public static let colorCountRange = ColorExtractor.supportedCounts

    /// How many colours to find, kept within `colorCountRange`.
    public var colorCount: Int {
        didSet {
            let clamped = min(max(colorCount, Self.colorCountRange.lowerBound), Self.colorCountRange.upperBound)
            if clamped != colorCount { colorCount = clamped }
        }
    }
    /// The mood the colours are picked for; `nil` for the photo's dominant colours.
    public var mood: PaletteMood?
    /// The photo whose colours `extractColorScheme()` finds.
    public var photo: SelectedPhoto?
    public private(set) var isExtracting = false
    /// The latest scheme found, or `nil` before the first extraction.
    public private(set) var scheme: PhotoColorScheme?
    /// Why the last extraction failed, in words; `nil` after a success.
    public private(set) var errorMessage: String?
    /// Every scheme found, newest first, at most `historyLimit` of them.
    public private(set) var history: [ColorSchemeRecord] = []
    /// Schemes the person kept, most recently added first; never trimmed with the history.
    public private(set) var favorites: [ColorSchemeRecord] = []
    public let historyLimit: Int

    @ObservationIgnored private let extractor: any ColorSchemeExtracting
    @ObservationIgnored private let loader = PhotoDataLoader()
    /// Identifies the latest request: an older one that finishes later must not overwrite it.
    @ObservationIgnored private var latestRequest = 0

    public init(extractor: any ColorSchemeExtracting = PhotoColorSchemeExtractor(), colorCount: Int = 5,
                historyLimit: Int = 50) {
        self.extractor = extractor
        self.colorCount = min(max(colorCount, Self.colorCountRange.lowerBound), Self.colorCountRange.upperBound)
        self.historyLimit = max(1, historyLimit)
    }

    // MARK: Extracting

    /// Finds the colours of `photo`; on success sets `scheme` and puts it at the front of `history`.
    public func extractColorScheme() async {
        guard let photo else {
            errorMessage = "choose a photo first"
            return
        }
        // Synchronously, before anything is awaited: the UI sees the loading state at once.
        isExtracting = true
        errorMessage = nil
        latestRequest += 1
        let request = latestRequest
        let count = colorCount
        let mood = mood
        defer { if request == latestRequest { isExtracting = false } }
        do {
            let data = try await loader.data(for: photo)
            let found = try await extractor.extractColorScheme(from: data, count: count, mood: mood)
            guard request == latestRequest else { return }  // superseded by a newer request
            scheme = found
            history.insert(ColorSchemeRecord(photoName: photo.name, scheme: found, colorCount: count, mood: mood), at: 0)
            if history.count > historyLimit { history.removeLast(history.count - historyLimit) }
        } catch {
            guard request == latestRequest else { return }
            errorMessage = Self.message(for: error)
        }
    }

    /// Puts back the history and favourites of an earlier session (the library's), replacing the
    /// current ones; the history is kept within `historyLimit`.
    public func restore(history: [ColorSchemeRecord], favorites: [ColorSchemeRecord]) {
        self.history = Array(history.prefix(historyLimit))
        self.favorites = favorites
    }

    // MARK: Favourites

    public func isFavorite(_ id: ColorSchemeRecord.ID) -> Bool {
        favorites.contains { $0.id == id }
    }

    /// Adds the record to the favourites, or removes it if it is one already.
    public func toggleFavorite(_ record: ColorSchemeRecord) {
        if let index = favorites.firstIndex(where: { $0.id == record.id }) {
            favorites.remove(at: index)
        } else {
            favorites.insert(record, at: 0)
        }
    }

    /// Adds the latest scheme (the front of the history) to the favourites.
    public func favoriteCurrentScheme() {
        guard let latest = history.first, !isFavorite(latest.id) else { return }
        favorites.insert(latest, at: 0)
    }

    // MARK: Export

    /// The latest scheme, or the given record's, in a palette format; `nil` when there is none.
    public func export(_ format: PaletteFormat, record: ColorSchemeRecord? = nil) -> Data? {
        guard let chosen = record ?? history.first else { return nil }
        return format.encode(chosen.scheme, name: chosen.photoName)
    }

    /// Writes an export to `url` atomically (a reader sees the old file or the whole new one).
    public func export(_ format: PaletteFormat, record: ColorSchemeRecord? = nil, to url: URL) throws {
        guard let data = export(format, record: record) else {
            throw ColorSchemeExportError.nothingToExport
        }
        try AtomicFileWriter.write(data, to: url)
    }

    private static func message(for error: any Error) -> String {
        switch error {
        case PhotoLoadingError.unreadableFile(let reason): reason
        case let error as CustomStringConvertible: "\(error)"
        default: "the photo could not be read (\(error))"
        }
    }
}

public enum ColorSchemeExportError: Error, Sendable, Equatable, CustomStringConvertible {
    case nothingToExport

    public var description: String { "no colour scheme to export yet" }
}
