import BoundedConcurrency
import Foundation
import Observation
import StickerKit

/// The sticker-pack app's state: the chosen photos, what each became, which could not be used, and
/// the progress of processing them all.
///
/// Main-actor isolated (the module's default). State changes only here, synchronously after each
/// `await`, so any front end — the CLI, the web app, a SwiftUI view — always sees a consistent
/// picture. The heavy work happens in the processor, off the main actor, through a shared cache.
@Observable
public final class StickerViewModel {
    /// How far a batch has come: photos finished (processed or found invalid) out of all selected.
    public struct Progress: Sendable, Hashable {
        public var completed: Int
        public var total: Int
        public var fractionCompleted: Double { total == 0 ? 1 : Double(completed) / Double(total) }
        public var isFinished: Bool { completed >= total }
    }

    /// Where one photo stands.
    public enum PhotoState: Sendable, Hashable {
        case pending
        case processed(ProcessedPhoto)
        case invalid(reason: String)
    }

    public private(set) var selection: [SelectedPhoto] = []
    public private(set) var processedPhotos: [SelectedPhoto.ID: ProcessedPhoto] = [:]
    /// Photos that cannot become stickers, with the reason in words.
    public private(set) var invalidPhotos: [SelectedPhoto.ID: String] = [:]
    public private(set) var progress = Progress(completed: 0, total: 0)
    public private(set) var isProcessing = false
    /// At most this many photos are processed at once (default: one per core).
    public var maxConcurrentJobs: Int

    @ObservationIgnored private let cache: ProcessedPhotoCache
    @ObservationIgnored private let loader = PhotoDataLoader()
    /// Each photo's bytes, read once.
    @ObservationIgnored private var photoData: [SelectedPhoto.ID: Data] = [:]
    @ObservationIgnored private var batch: Task<Void, Never>?

    public init(cache: ProcessedPhotoCache, maxConcurrentJobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.cache = cache
        self.maxConcurrentJobs = max(1, maxConcurrentJobs)
    }

    public convenience init(processor: any PhotoProcessing,
                            maxConcurrentJobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(cache: ProcessedPhotoCache(processor: processor), maxConcurrentJobs: maxConcurrentJobs)
    }

    // MARK: Choosing photos

    /// Replaces the selection; results of photos that stay selected are kept.
    public func select(_ photos: [SelectedPhoto]) {
        selection = photos
        let ids = Set(photos.map(\.id))
        processedPhotos = processedPhotos.filter { ids.contains($0.key) }
        invalidPhotos = invalidPhotos.filter { ids.contains($0.key) }
        photoData = photoData.filter { ids.contains($0.key) }
        progress = Progress(completed: processedPhotos.count + invalidPhotos.count, total: photos.count)
    }

    public func add(_ photos: [SelectedPhoto]) {
        select(selection + photos.filter { photo in !selection.contains { $0.id == photo.id } })
    }

    public func state(of id: SelectedPhoto.ID) -> PhotoState {
        if let processed = processedPhotos[id] { return .processed(processed) }
        if let reason = invalidPhotos[id] { return .invalid(reason: reason) }
        return .pending
    }

    // MARK: Loading and processing

    /// The photo's bytes, read once and kept; `nil` (and the photo marked invalid) when unreadable.
    public func loadPhoto(_ photo: SelectedPhoto) async -> Data? {
        if let data = photoData[photo.id] { return data }
        do {
            let data = try await loader.data(for: photo)
            photoData[photo.id] = data
            return data
        } catch {
            markInvalid(photo.id, reason: error.reason)
            return nil
        }
    }

    /// Processes one photo (through the cache) and records the result.
    public func process(_ photo: SelectedPhoto) async {
        let outcome = await outcome(for: photo)
        record(outcome, for: photo.id)
    }

    /// Processes every selected photo not yet done, a bounded number at a time, recording each
    /// result as it arrives. Returns when all are done or the batch was cancelled.
    public func processAllPhotos() async {
        if let running = batch {
            await running.value
            return
        }
        let pending = selection.filter { state(of: $0.id) == .pending }
        progress = Progress(completed: selection.count - pending.count, total: selection.count)
        guard !pending.isEmpty else { return }

        isProcessing = true
        let task = Task { await self.processConcurrently(pending) }
        batch = task
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        batch = nil
        isProcessing = false
    }

    /// Stops the running batch promptly; photos already finished keep their results.
    public func cancel() {
        batch?.cancel()
    }

    /// Redraws a processed photo's sticker in `style` from its kept cut-out (no network) and keeps
    /// it, so the pack has it too. False when the photo is not processed, kept no cut-out, or was
    /// removed while it was redrawn.
    public func restyle(_ id: SelectedPhoto.ID, with style: StickerStyle) async -> Bool {
        guard let processed = processedPhotos[id], let restyled = await processed.restyled(with: style),
              processedPhotos[id] != nil else { return false }
        processedPhotos[id] = restyled
        return true
    }

    private enum Outcome: Sendable {
        case processed(ProcessedPhoto)
        case invalid(String)
        case cancelled
    }

    private func processConcurrently(_ photos: [SelectedPhoto]) async {
        await forEachConcurrently(photos, limit: maxConcurrentJobs, { photo in await self.outcome(for: photo) }) {
            record($1, for: photos[$0].id)
        }
    }

    private func outcome(for photo: SelectedPhoto) async -> Outcome {
        guard let data = await loadPhoto(photo) else {
            return .invalid(invalidPhotos[photo.id] ?? "unreadable")
        }
        do {
            return .processed(try await cache.processedPhoto(for: data))
        } catch let error as PhotoProcessingError {
            return .invalid(error.description)
        } catch is CancellationError {
            return .cancelled
        } catch {
            return Task.isCancelled ? .cancelled : .invalid(String(describing: error))
        }
    }

    private func record(_ outcome: Outcome, for id: SelectedPhoto.ID) {
        guard selection.contains(where: { $0.id == id }) else { return }
        switch outcome {
        case .processed(let photo):
            let wasDone = state(of: id) != .pending
            processedPhotos[id] = photo
            invalidPhotos[id] = nil
            if !wasDone { progress.completed += 1 }
        case .invalid(let reason):
            markInvalid(id, reason: reason)
        case .cancelled:
            break
        }
    }

    private func markInvalid(_ id: SelectedPhoto.ID, reason: String) {
        let wasDone = state(of: id) != .pending
        invalidPhotos[id] = reason
        processedPhotos[id] = nil
        if !wasDone, selection.contains(where: { $0.id == id }) { progress.completed += 1 }
    }
}

extension PhotoLoadingError {
    var reason: String {
        switch self { case .unreadableFile(let message): message }
    }
}
