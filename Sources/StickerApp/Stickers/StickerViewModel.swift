import BoundedConcurrency
import Foundation
import Observation
import Raster
import StickerKit

/// The sticker-pack app's state: the chosen photos and where each stands (one `PhotoState` per
/// photo: waiting, being made, done with its files, invalid with its problem, or failed by the
/// engine), and the progress of processing them all, computed from those states.
///
/// Main-actor isolated (the module's default). State changes only here, synchronously after each
/// `await`, so any front end — the CLI, the web app, a SwiftUI view — always sees a consistent
/// picture. The heavy work happens in the processor, off the main actor, through a shared cache.
@Observable
public final class StickerViewModel {
    /// How far a batch has come: photos finished (processed, found invalid, or failed by the
    /// engine) out of all selected.
    nonisolated public struct Progress: Sendable, Hashable {
        public var completed: Int
        public var total: Int
        public var fractionCompleted: Double { total == 0 ? 1 : Double(completed) / Double(total) }
        public var isFinished: Bool { completed >= total }
    }

    /// Where one photo stands; each case carries what it needs.
    nonisolated public enum PhotoState: Sendable, Hashable {
        /// Not made yet (never processed, or the engine failed before and it is tried again).
        case waiting
        /// Being made by the running batch.
        case working
        /// Made: its files (the variant the person chose), and whether they came from the cache
        /// (memory, disk or the library) rather than from work in this process.
        case done(StickerFiles, fromCache: Bool)
        /// The photo cannot become a sticker (its file, its picture): another photo may work.
        case invalid(PhotoProblem)
        /// The engine could not run for it (the model cannot run): not the photo's fault, so it
        /// is tried again by the next batch.
        case engineFailed(reason: String)

        /// The made photo's files, if it is done.
        public var files: StickerFiles? {
            if case .done(let files, _) = self { files } else { nil }
        }

        /// Whether the photo is done with files from the cache (or the library) rather than work.
        public var isFromCache: Bool {
            if case .done(_, fromCache: true) = self { true } else { false }
        }

        /// Why the photo cannot be used, if it cannot.
        public var problem: PhotoProblem? {
            if case .invalid(let problem) = self { problem } else { nil }
        }

        /// Finished for this batch: processed, invalid or failed by the engine.
        public var isFinished: Bool {
            switch self {
            case .waiting, .working: false
            case .done, .invalid, .engineFailed: true
            }
        }

        /// The photo's own verdict — made, or unusable — which the library records (an engine
        /// failure is not the photo's, and is tried again).
        public var isVerdict: Bool {
            switch self {
            case .done, .invalid: true
            case .waiting, .working, .engineFailed: false
            }
        }
    }

    public private(set) var selection: [SelectedPhoto] = []
    /// Each selected photo's state; a photo without an entry is waiting.
    public private(set) var states: [SelectedPhoto.ID: PhotoState] = [:]
    /// Set when a result could not be stored (a full disk): the batch stops, the cause kept.
    public private(set) var storageFailure: StorageError?
    public private(set) var isProcessing = false
    /// At most this many photos are processed at once (default: one per core).
    public var maxConcurrentJobs: Int

    @ObservationIgnored public let cache: ProcessedPhotoCache
    /// Makes the clips among the photos into animated stickers (nil: clips are refused, saying so).
    @ObservationIgnored public var clipStickers: ClipStickers?
    @ObservationIgnored let loader = PhotoDataLoader()
    /// Whether a closer look at a clicked point is running (one at a time: see `chooseSubject`).
    @ObservationIgnored var isLookingCloser = false
    @ObservationIgnored private var batch: Task<Void, Never>?

    public init(cache: ProcessedPhotoCache, maxConcurrentJobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.cache = cache
        self.maxConcurrentJobs = max(1, maxConcurrentJobs)
    }

    public convenience init(processor: any PhotoProcessing,
                            maxConcurrentJobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.init(cache: ProcessedPhotoCache(processor: processor), maxConcurrentJobs: maxConcurrentJobs)
    }

    // MARK: Reading the states

    public func state(of id: SelectedPhoto.ID) -> PhotoState {
        states[id] ?? .waiting
    }

    /// Photos finished out of all selected, from their states.
    public var progress: Progress {
        Progress(completed: selection.count { state(of: $0.id).isFinished }, total: selection.count)
    }

    /// The processed photos' files.
    public var processedPhotos: [SelectedPhoto.ID: StickerFiles] {
        states.compactMapValues(\.files)
    }

    /// Photos that cannot become stickers, with the typed reason (`reason` says it in words).
    public var invalidPhotos: [SelectedPhoto.ID: PhotoProblem] {
        states.compactMapValues(\.problem)
    }

    /// The processed photos whose result came from the cache (memory, disk or the library).
    public var fromCache: Set<SelectedPhoto.ID> {
        Set(states.compactMap { id, state in state.isFromCache ? id : nil })
    }

    /// The engine's failure, if any photo met one: front ends report it apart from invalid photos.
    public var engineFailure: String? {
        selection.lazy.compactMap { photo -> String? in
            if case .engineFailed(let reason) = self.state(of: photo.id) { reason } else { nil }
        }.first
    }

    // MARK: Choosing photos

    /// Replaces the selection; results of photos that stay selected are kept.
    public func select(_ photos: [SelectedPhoto]) {
        selection = photos
        let ids = Set(photos.map(\.id))
        states = states.filter { ids.contains($0.key) }
    }

    public func add(_ photos: [SelectedPhoto]) {
        select(selection + photos.filter { photo in !selection.contains { $0.id == photo.id } })
    }

    // MARK: Loading and processing

    /// Puts back what an earlier session made (the library's record): no work is done for them.
    public func restore(_ results: [SelectedPhoto.ID: StickerFiles], invalid: [SelectedPhoto.ID: String] = [:]) {
        for (id, files) in results where isSelected(id) { states[id] = .done(files, fromCache: true) }
        for (id, reason) in invalid where isSelected(id) { states[id] = .invalid(.recorded(reason)) }
    }

    private func isSelected(_ id: SelectedPhoto.ID) -> Bool {
        selection.contains { $0.id == id }
    }

    /// The photo's bytes, read when asked (not kept: a batch must not hold every photo's bytes);
    /// `nil` (and the photo marked invalid) when unreadable.
    public func loadPhoto(_ photo: SelectedPhoto) async -> Data? {
        do {
            return try await loader.data(for: photo)
        } catch {
            markInvalid(photo.id, problem: .unreadableFile(error))
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
        let pending = selection.filter {
            switch state(of: $0.id) { case .waiting, .working, .engineFailed: true; case .done, .invalid: false }
        }
        // Photos the engine failed on are tried again: waiting once more.
        for photo in pending { states[photo.id] = nil }
        guard !pending.isEmpty else { return }

        isProcessing = true
        let task = Task { await self.processConcurrently(pending) }
        batch = task
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        // A cancelled batch leaves the photos it was making waiting.
        for (id, state) in states where state == .working { states[id] = nil }
        batch = nil
        isProcessing = false
    }

    /// Stops the running batch promptly; photos already finished keep their results.
    public func cancel() {
        batch?.cancel()
    }

    /// Keeps `files` as the done photo's current variant, unless it was removed or made again
    /// meanwhile (a restyle, a re-cut). False when the photo is no longer done.
    func replaceFiles(of id: SelectedPhoto.ID, with files: StickerFiles) -> Bool {
        guard case .done(_, let fromCache) = state(of: id) else { return false }
        states[id] = .done(files, fromCache: fromCache)
        return true
    }

    enum Outcome: Sendable {
        case processed(StickerFiles, cached: Bool)
        case invalid(PhotoProblem)
        case engineFailed(String)
        case failed(StorageError)
        case cancelled
    }

    private func processConcurrently(_ photos: [SelectedPhoto]) async {
        await forEachConcurrently(photos, limit: maxConcurrentJobs, { photo in await self.outcome(for: photo) }) {
            record($1, for: photos[$0].id)
        }
    }

    private func outcome(for photo: SelectedPhoto) async -> Outcome {
        if isSelected(photo.id), !state(of: photo.id).isFinished { states[photo.id] = .working }
        guard let data = await loadPhoto(photo) else {
            return state(of: photo.id).problem.map(Outcome.invalid) ?? .cancelled
        }
        if isClip(photo, data: data) { return await clipOutcome(for: photo, data: data) }
        do {
            let (files, origin) = try await cache.lookup(data)
            return .processed(files, cached: origin.isCached)
        } catch let error as StorageError {
            return .failed(error)
        } catch let error as PhotoProcessingError {
            return error.isPhotoProblem ? .invalid(.unusable(error)) : .engineFailed(error.description)
        } catch is CancellationError {
            return .cancelled
        } catch {
            // Not a PhotoProcessingError: something in the engine, not a verdict on the photo.
            return Task.isCancelled ? .cancelled : .engineFailed(String(describing: error))
        }
    }

    private func record(_ outcome: Outcome, for id: SelectedPhoto.ID) {
        guard isSelected(id) else { return }
        switch outcome {
        case .processed(let files, let cached):
            states[id] = .done(files, fromCache: cached)
        case .engineFailed(let reason):
            states[id] = .engineFailed(reason: reason)
        case .failed(let error):
            // Nothing more can be stored: stop the batch, keep the first cause.
            if storageFailure == nil { storageFailure = error }
            if state(of: id) == .working { states[id] = nil }
            batch?.cancel()
        case .invalid(let problem):
            markInvalid(id, problem: problem)
        case .cancelled:
            if state(of: id) == .working { states[id] = nil }
        }
    }

    private func markInvalid(_ id: SelectedPhoto.ID, problem: PhotoProblem) {
        guard isSelected(id) else { return }
        states[id] = .invalid(problem)
    }
}

/// Why a chosen photo cannot become a sticker, with its typed cause.
nonisolated public enum PhotoProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Its file cannot be read.
    case unreadableFile(PhotoLoadingError)
    /// Its picture cannot be used (not a readable image, no clear subject).
    case unusable(PhotoProcessingError)
    /// A clip that cannot become an animated sticker (unreadable, corrupt, no clear subject): why.
    case clip(String)
    /// Found unusable by an earlier session: the reason as the library recorded it.
    case recorded(String)

    /// The reason in words, for the person who chose the photo.
    public var reason: String {
        switch self {
        case .unreadableFile(.unreadableFile(let message)): message
        case .unusable(let error): error.description
        case .clip(let reason): reason
        case .recorded(let reason): reason
        }
    }

    public var description: String { reason }
}
