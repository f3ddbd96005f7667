import Foundation
import SpacePhotos
import StickerApp

/// What the page shows of the space tab, as JSON.
struct SpaceSnapshot: Codable, Sendable, Equatable {
    struct Item: Codable, Sendable, Equatable {
        var id: String
        var title: String
        var description: String
        /// `yyyy-MM-dd`.
        var date: String
        /// `image`, `video` or `other`.
        var mediaType: String
        /// What the list shows: the picture, or a video's thumbnail; `nil` when there is none.
        var previewURL: String?
        var copyright: String?
        var isSaved: Bool
        var isSaving: Bool
        /// Why the photo cannot be saved (a video without thumbnail…); `nil` when it can.
        var unsavableReason: String?
    }

    var items: [Item]
    var isLoading: Bool
    var hasLoaded: Bool
    var error: String?
    var libraryPath: String
}

extension SpaceSnapshot.Item {
    @MainActor init(_ photo: SpacePhoto, model: CatalogModel) {
        id = photo.id
        title = photo.title
        description = photo.description
        date = photo.day
        mediaType = photo.mediaType.rawValue
        previewURL = photo.imageURL(hd: false)?.absoluteString
        copyright = photo.copyright
        isSaved = model.savedFiles[photo.id] != nil
        isSaving = model.savingIDs.contains(photo.id)
        unsavableReason = photo.unsavableReason
    }
}
