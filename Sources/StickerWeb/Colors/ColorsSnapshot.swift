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
        colors = StickersSnapshot.Color.all(of: record.scheme)
        self.isFavorite = isFavorite
    }
}

extension StickersSnapshot.Color {
    /// The scheme's colours with their weights rounded as `palette --format json` does (summing to 1).
    static func all(of scheme: PhotoColorScheme) -> [Self] {
        zip(scheme.colors, scheme.jsonWeights).map { Self(hex: $0.hex, weight: $1) }
    }
}
