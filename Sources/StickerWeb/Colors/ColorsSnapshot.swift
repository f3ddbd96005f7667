import Foundation
import StickerApp
import StickerKit

/// What the page shows of the colours tab, as JSON.
struct ColorsSnapshot: Codable, Sendable, Equatable {
    /// A colour as a swatch shows it: its share, its name, the readable text colour on it and
    /// its WCAG 2.x contrast against white and black.
    struct Swatch: Codable, Sendable, Equatable {
        struct Contrast: Codable, Sendable, Equatable { var white: Double; var black: Double }
        var hex: String
        var weight: Double
        var name: String
        var textColor: String
        var contrast: Contrast
    }

    struct Record: Codable, Sendable, Equatable {
        var id: UUID
        var photoName: String
        var colorCount: Int
        var mood: String?
        var date: Date
        var colors: [Swatch]
        var isFavorite: Bool
    }

    /// The chosen photo's name, or `nil` before one is chosen.
    var photoName: String?
    var colorCount: Int
    var minColorCount: Int
    var maxColorCount: Int
    var isExtracting: Bool
    /// The mood the next extraction picks colours for; `nil` for the dominant colours.
    var mood: String?
    var moods: [String]
    var colors: [Swatch]?
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
        mood = record.mood?.rawValue
        date = record.date
        colors = ColorsSnapshot.Swatch.all(of: record.scheme)
        self.isFavorite = isFavorite
    }
}

extension StickersSnapshot.Color {
    /// The scheme's colours with their weights rounded as `palette --format json` does (summing to 1).
    static func all(of scheme: PhotoColorScheme) -> [Self] {
        zip(scheme.colors, scheme.jsonWeights).map { Self(hex: $0.hex, weight: $1) }
    }
}

extension ColorsSnapshot.Swatch {
    /// The scheme's swatches, weights rounded as `palette --format json` does (summing to 1).
    static func all(of scheme: PhotoColorScheme) -> [Self] {
        zip(scheme.colors, scheme.jsonWeights).map { Self($0, weight: $1) }
    }

    init(_ color: PaletteColor, weight: Double) {
        func hundredths(_ ratio: Double) -> Double { (ratio * 100).rounded() / 100 }
        self.init(hex: color.hex, weight: weight, name: ColorNames.name(of: color),
                  textColor: color.textColor.hex,
                  contrast: Contrast(white: hundredths(color.contrastRatio(with: .white)),
                                     black: hundredths(color.contrastRatio(with: .black))))
    }
}

extension ColorsSnapshot {
    @MainActor init(_ service: ColorsService) {
        let model = service.model
        self.init(
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
}
