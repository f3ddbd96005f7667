import Foundation
import StickerKit

/// One extracted colour scheme, as the history and the favourites keep it.
public struct ColorSchemeRecord: Identifiable, Sendable, Hashable {
    public let id: UUID
    /// The photo's name (its file name without extension), used to title exports.
    public let photoName: String
    public let scheme: PhotoColorScheme
    /// How many colours were asked for (the scheme may hold fewer if the photo has fewer).
    public let colorCount: Int
    /// The mood the colours were picked for; `nil` for the dominant colours.
    public let mood: PaletteMood?
    public let date: Date

    public init(id: UUID = UUID(), photoName: String, scheme: PhotoColorScheme, colorCount: Int,
                mood: PaletteMood? = nil, date: Date = Date()) {
        self.id = id
        self.photoName = photoName
        self.scheme = scheme
        self.colorCount = colorCount
        self.mood = mood
        self.date = date
    }
}
