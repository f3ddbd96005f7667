import BoundedConcurrency
import Foundation
import Observation
import Raster
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
        case processed(StickerFiles)
        /// The photo cannot become a sticker (its file, its picture): another photo may work.
        case invalid(PhotoProblem)
        /// The engine could not run for it (the model cannot run): not the photo's fault, so it
        /// is tried again by the next batch.
        case engineFailed(reason: String)
    }

    public private(set) var selection: [SelectedPhoto] = []
    public private(set) var processedPhotos: [SelectedPhoto.ID: StickerFiles] = [:]
    /// The processed photos whose result came from the cache (memory or disk) rather than work.
    public private(set) var fromCache: Set<SelectedPhoto.ID> = []
    /// Set when a result could not be stored (a full disk): the batch stops, the cause kept.
    public private(set) var storageFailure: StorageError?
    /// Photos that cannot become stickers, with the typed reason (`reason` says it in words).
    public private(set) var invalidPhotos: [SelectedPhoto.ID: PhotoProblem] = [:]
    /// Photos the engine failed on (the model cannot run), with its message.
    public private(set) var engineFailures: [SelectedPhoto.ID: String] = [:]
    /// The engine's failure, if any photo met one: front ends report it apart from invalid photos.
    public var engineFailure: String? { engineFailures.values.first }
    public private(set) var progress = Progress(completed: 0, total: 0)
    public private(set) var isProcessing = false
    /// At most this many photos are processed at once (default: one per core).
    public var maxConcurrentJobs: Int

    @ObservationIgnored public let cache: ProcessedPhotoCache
    @ObservationIgnored private let loader = PhotoDataLoader()
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
        engineFailures = engineFailures.filter { ids.contains($0.key) }
        fromCache = fromCache.filter { ids.contains($0) }
        progress = Progress(completed: processedPhotos.count + invalidPhotos.count, total: photos.count)
    }

    public func add(_ photos: [SelectedPhoto]) {
        select(selection + photos.filter { photo in !selection.contains { $0.id == photo.id } })
    }

    public func state(of id: SelectedPhoto.ID) -> PhotoState {
        if let processed = processedPhotos[id] { return .processed(processed) }
        if let problem = invalidPhotos[id] { return .invalid(problem) }
        if let reason = engineFailures[id] { return .engineFailed(reason: reason) }
        return .pending
    }

    // MARK: Loading and processing

    /// Puts back what an earlier session made (the library's record): no work is done for them.
    public func restore(_ results: [SelectedPhoto.ID: StickerFiles], invalid: [SelectedPhoto.ID: String] = [:]) {
        for (id, files) in results where selection.contains(where: { $0.id == id }) { record(.processed(files, cached: true), for: id) }
        for (id, reason) in invalid where selection.contains(where: { $0.id == id }) {
            markInvalid(id, problem: .recorded(reason))
        }
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
            switch state(of: $0.id) { case .pending, .engineFailed: true; case .processed, .invalid: false }
        }
        // Photos the engine failed on are tried again: pending once more.
        for photo in pending { engineFailures[photo.id] = nil }
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
    /// its new files, so the pack has it too. False when the photo is not processed, kept no
    /// cut-out, the files could not be written, or it was removed while it was redrawn.
    public func restyle(_ id: SelectedPhoto.ID, with style: StickerStyle) async -> Bool {
        guard let files = processedPhotos[id], let restyled = await Self.restyled(files, with: style),
              processedPhotos[id] != nil else { return false }
        processedPhotos[id] = restyled
        return true
    }

    /// The new sticker and gradient are written beside the cut-out, in a folder named for the
    /// style, through StickerKit's one PNG path.
    @concurrent private static func restyled(_ files: StickerFiles, with style: StickerStyle) async -> StickerFiles? {
        guard let cutOutURL = files.cutOut, let data = try? Data(contentsOf: cutOutURL),
              let cutOut = try? ImageDecoder.decode(data) else { return nil }
        let image = await style.apply(to: cutOut, bands: ProcessInfo.processInfo.activeProcessorCount)
        guard let pngs = try? await StickerPNGs.render(sticker: image, colorScheme: files.colorScheme) else { return nil }
        let folder = cutOutURL.deletingLastPathComponent()
            .appending(path: "style-\(ContentDigest(Data(String(describing: style).utf8)).hex.prefix(16))", directoryHint: .isDirectory)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var restyled = try pngs.write(into: folder, colorScheme: files.colorScheme)
            restyled.mask = files.mask
            restyled.cutOut = files.cutOut
            restyled.subjects = files.subjects
            restyled.chosenSubjects = files.chosenSubjects
            restyled.style = style
            return restyled
        } catch {
            return nil
        }
    }

    /// A processed photo's subjects, as kept with its files, with the choice its sticker holds;
    /// nil when the photo is not processed or kept no subjects.
    public func subjects(of id: SelectedPhoto.ID) async -> PhotoSubjects? {
        guard let files = processedPhotos[id], let url = files.subjects, var subjects = await Self.loadSubjects(url) else { return nil }
        if let chosen = files.chosenSubjects { subjects.chosen = chosen }
        return subjects
    }

    /// Cuts a processed photo's sticker out again keeping the subjects `choice` names, from its
    /// kept subjects (no network), in its style, and keeps the new files (the pack has them too).
    /// False when the photo is not processed, kept no subjects, the files could not be written,
    /// or it was removed meanwhile; throws for a choice the subjects do not allow.
    public func chooseSubjects(_ id: SelectedPhoto.ID, _ choice: SubjectChoice) async throws(SubjectChoiceError) -> Bool {
        guard let files = processedPhotos[id], let recut = try await Self.recut(files, choosing: choice),
              processedPhotos[id] != nil else { return false }
        processedPhotos[id] = recut
        return true
    }

    @concurrent private static func loadSubjects(_ url: URL) async -> PhotoSubjects? {
        guard let json = try? Data(contentsOf: url),
              let png = try? Data(contentsOf: url.deletingLastPathComponent().appending(path: PhotoSubjects.cutOutFileName)) else { return nil }
        return try? PhotoSubjects(json: json, png: png)
    }

    /// The new files are written beside the kept subjects, in a folder named for the choice and
    /// the style, through StickerKit's one PNG path; the new cut-out is what a restyle draws from.
    @concurrent private static func recut(_ files: StickerFiles, choosing choice: SubjectChoice) async throws(SubjectChoiceError) -> StickerFiles? {
        guard let url = files.subjects, let subjects = await loadSubjects(url) else { return nil }
        let ranks = try subjects.ranks(of: choice)
        guard var cut = try subjects.cutOut(choosing: choice) else { throw .nothingChosen }
        cut.subjects = nil  // kept once, beside the original files
        let style = files.style ?? StickerStyle()
        let image = await style.apply(to: cut.image, bands: ProcessInfo.processInfo.activeProcessorCount)
        let photo = ProcessedPhoto(sticker: Sticker(image: image, mask: cut.mask, cutOut: cut, style: style), colorScheme: files.colorScheme)
        let name = "subjects-\(ranks.map(String.init).joined(separator: "-"))-\(ContentDigest(Data(String(describing: style).utf8)).hex.prefix(12))"
        let folder = url.deletingLastPathComponent().appending(path: name, directoryHint: .isDirectory)
        do {
            let pngs = try await StickerPNGs.render(photo, kinds: [.sticker, .gradient, .mask, .cutOut])
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var recut = try pngs.write(into: folder, colorScheme: files.colorScheme)
            recut.subjects = url
            recut.chosenSubjects = ranks
            recut.style = style
            return recut
        } catch {
            return nil
        }
    }

    private enum Outcome: Sendable {
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
        guard let data = await loadPhoto(photo) else {
            return invalidPhotos[photo.id].map(Outcome.invalid) ?? .cancelled
        }
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
        guard selection.contains(where: { $0.id == id }) else { return }
        switch outcome {
        case .processed(let files, let cached):
            let wasDone = state(of: id) != .pending
            processedPhotos[id] = files
            if cached { fromCache.insert(id) } else { fromCache.remove(id) }
            invalidPhotos[id] = nil
            engineFailures[id] = nil
            if !wasDone { progress.completed += 1 }
        case .engineFailed(let reason):
            let wasDone = state(of: id) != .pending
            engineFailures[id] = reason
            if !wasDone { progress.completed += 1 }
        case .failed(let error):
            // Nothing more can be stored: stop the batch, keep the first cause.
            if storageFailure == nil { storageFailure = error }
            batch?.cancel()
        case .invalid(let problem):
            markInvalid(id, problem: problem)
        case .cancelled:
            break
        }
    }

    private func markInvalid(_ id: SelectedPhoto.ID, problem: PhotoProblem) {
        let wasDone = state(of: id) != .pending
        invalidPhotos[id] = problem
        processedPhotos[id] = nil
        engineFailures[id] = nil
        if !wasDone, selection.contains(where: { $0.id == id }) { progress.completed += 1 }
    }
}

/// Why a chosen photo cannot become a sticker, with its typed cause.
public enum PhotoProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// Its file cannot be read.
    case unreadableFile(PhotoLoadingError)
    /// Its picture cannot be used (not a readable image, no clear subject).
    case unusable(PhotoProcessingError)
    /// Found unusable by an earlier session: the reason as the library recorded it.
    case recorded(String)

    /// The reason in words, for the person who chose the photo.
    public var reason: String {
        switch self {
        case .unreadableFile(.unreadableFile(let message)): message
        case .unusable(let error): error.description
        case .recorded(let reason): reason
        }
    }

    public var description: String { reason }
}
