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
        /// The page to open for a video day (its player); `nil` for pictures.
        var videoURL: String?
        var isFavorite: Bool
    }

    /// A day of the last range the server kept failing.
    struct FailedDay: Codable, Sendable, Equatable {
        var date: String
        var error: String
    }

    var items: [Item]
    var isLoading: Bool
    var hasLoaded: Bool
    var error: String?
    var libraryPath: String
    /// Days skipped from the last range load.
    var failedDays: [FailedDay]
    /// The favourites, most recently added first.
    var favorites: [Item]
    /// True when the service could not be reached and `items` are the photos seen before.
    var isShowingSeenBefore: Bool
    /// The days a date picker may offer: APOD's first day through today (UTC).
    var firstDay: String
    var today: String
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
        videoURL = photo.mediaType == .video ? photo.url.absoluteString : nil
        isFavorite = model.isFavorite(photo.id)
    }
}

extension SpaceSnapshot {
    @MainActor init(_ service: SpaceService) {
        let model = service.model
        self.init(
            items: model.items.map { SpaceSnapshot.Item($0, model: model) },
            isLoading: model.isLoading,
            hasLoaded: service.hasLoaded,
            error: model.error.map { "\($0)" },
            libraryPath: model.libraryFolder.path,
            failedDays: model.failedDays.map { .init(date: $0.day, error: "\($0.error)") },
            favorites: model.favorites.map { SpaceSnapshot.Item($0, model: model) },
            isShowingSeenBefore: model.isShowingSeenBefore,
            firstDay: APODDay.string(from: APODDay.firstDay),
            today: APODDay.string(from: Date())
        )
    }
}
