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
    public let date: Date

    public init(id: UUID = UUID(), photoName: String, scheme: PhotoColorScheme, colorCount: Int, date: Date = Date()) {
        self.id = id
        self.photoName = photoName
        self.scheme = scheme
        self.colorCount = colorCount
        self.date = date
    }
}
