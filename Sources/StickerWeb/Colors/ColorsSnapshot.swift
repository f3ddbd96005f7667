import Foundation
import StickerApp
import StickerKit

/// What the page shows of the colours tab, as JSON.
struct ColorsSnapshot: Codable, Sendable, Equatable {
    struct Record: Codable, Sendable, Equatable {
        var id: UUID
        var photoName: String
        var colorCount: Int
        var date: Date
        var colors: [StickersSnapshot.Color]
        var isFavorite: Bool
    }

    /// The chosen photo's name, or `nil` before one is chosen.
    var photoName: String?
    var colorCount: Int
    var minColorCount: Int
    var maxColorCount: Int
    var isExtracting: Bool
    var colors: [StickersSnapshot.Color]?
    var error: String?
    var history: [Record]
    var favorites: [Record]
    var formats: [String]
}

extension ColorsSnapshot.Record {
    @MainActor init(_ record: ColorSchemeRecord, isFavorite: Bool) {
        id = record.id
        photoName = record.photoName
        colorCount = record.colorCount
        date = record.date
        colors = record.scheme.colors.map(StickersSnapshot.Color.init)
        self.isFavorite = isFavorite
    }
}

extension StickersSnapshot.Color {
    init(_ color: PaletteColor) {
        self.init(hex: color.hex, weight: (color.weight * 10_000).rounded() / 10_000)
    }
}
