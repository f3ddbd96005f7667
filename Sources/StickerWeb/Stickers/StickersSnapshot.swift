import Foundation
import StickerApp
import StickerKit

/// What the page shows of the sticker tab, as JSON: every photo with its state, and the progress.
struct StickersSnapshot: Codable, Sendable, Equatable {
    struct Photo: Codable, Sendable, Equatable {
        var id: UUID
        var name: String
        /// `pending`, `processed`, `invalid` (the photo cannot be used) or `failed` (the engine
        /// could not run for it: not the photo's fault).
        var status: String
        var reason: String?
        var colors: [Color]
        /// The sticker's style (processed photos only).
        var style: StickerStyleJSON?
    }

    struct Color: Codable, Sendable, Equatable {
        var hex: String
        var weight: Double
    }

    struct Progress: Codable, Sendable, Equatable {
        var completed: Int
        var total: Int
        var fraction: Double
    }

    var photos: [Photo]
    var progress: Progress
    var isProcessing: Bool
    /// Why the engine failed (the cut-out model cannot run), when it did: not an invalid photo.
    var engineFailure: String?
    /// Whether a library folder is configured, so "Use library photos" can work.
    var hasLibrary: Bool
    var limits: WebLimits
}

extension StickersSnapshot.Photo {
    @MainActor init(_ photo: SelectedPhoto, state: StickerViewModel.PhotoState) {
        id = photo.id
        name = photo.name
        switch state {
        case .pending:
            status = "pending"
            colors = []
        case .processed(let processed):
            status = "processed"
            style = processed.style.map(StickerStyleJSON.init)
            colors = StickersSnapshot.Color.all(of: processed.colorScheme)
        case .invalid(let problem):
            status = "invalid"
            reason = problem.reason
            colors = []
        case .engineFailed(let why):
            status = "failed"
            reason = why
            colors = []
        }
    }
}
