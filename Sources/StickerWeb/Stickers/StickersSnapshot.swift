import Foundation
import StickerApp
import StickerKit

/// What the page shows of the sticker tab, as JSON: every photo with its state, and the progress.
struct StickersSnapshot: Codable, Sendable, Equatable {
    /// A photo's status, one of these strings in the JSON.
    enum Status: String, Codable, Sendable, Equatable, CaseIterable {
        /// Not made yet: waiting for a batch, or being made by the running one.
        case pending
        /// Made: its sticker and gradient can be fetched, its colours are listed.
        case processed
        /// The photo cannot become a sticker (`reason` says why): another photo may work.
        case invalid
        /// The engine could not run for it (`reason` says why): not the photo's fault, tried again
        /// by the next batch.
        case failed
    }

    struct Photo: Codable, Sendable, Equatable {
        var id: UUID
        var name: String
        var status: Status
        var reason: String?
        var colors: [Color]
        /// The sticker's style (processed photos only).
        var style: StickerStyleJSON?
        /// Its caption, when it has one.
        var caption: CaptionJSON?
        /// How many brush strokes its cut-out was edited with, when any (`GET …/edits` has them).
        var strokeCount: Int?
        /// A clip's sticker: animated (`sticker.webp` plays; `sticker.png` is its first frame).
        var animated: Bool?
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
    /// The packs the page offers for messaging apps, with each one's sticker counts
    /// (`MessengerPlatform.rules`, the rules `make --for` enforces too).
    var platforms: [Platform]

    struct Platform: Codable, Sendable, Equatable {
        /// `whatsapp`, `telegram` or `signal`: the pack's route is `/api/stickers/pack/PLATFORM`.
        var platform: String
        var name: String
        var minStickers: Int
        var maxStickers: Int
    }
}

extension StickersSnapshot {
    init(_ overview: StickersService.Overview, limits: WebLimits) {
        self.init(
            photos: overview.photos.map { Photo($0.photo, state: $0.state) },
            progress: .init(completed: overview.progress.completed, total: overview.progress.total,
                            fraction: overview.progress.fractionCompleted),
            isProcessing: overview.isProcessing,
            engineFailure: overview.engineFailure,
            hasLibrary: overview.hasPhotoFolder,
            limits: limits,
            platforms: MessengerPlatform.allCases.map { platform in
                Platform(platform: platform.rawValue, name: platform.displayName,
                         minStickers: platform.rules.stickersPerPack.lowerBound, maxStickers: platform.rules.stickersPerPack.upperBound)
            }
        )
    }
}

extension StickersSnapshot.Photo {
    init(_ photo: SelectedPhoto, state: StickerViewModel.PhotoState) {
        id = photo.id
        name = photo.name
        colors = []
        switch state {
        case .waiting, .working:
            status = .pending
        case .done(let files, _):
            status = .processed
            style = files.style.map(StickerStyleJSON.init)
            caption = files.caption.map(CaptionJSON.init)
            strokeCount = files.edits?.strokes.count
            animated = files.isAnimated ? true : nil
            colors = StickersSnapshot.Color.all(of: files.colorScheme)
        case .invalid(let problem):
            status = .invalid
            reason = problem.reason
        case .engineFailed(let why):
            status = .failed
            reason = why
        }
    }
}
