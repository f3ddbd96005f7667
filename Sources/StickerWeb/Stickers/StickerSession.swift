import Foundation
import Observation
import Raster
import StickerApp
import StickerKit

/// The sticker tab's server side: one `StickerViewModel` shared by every request (the app serves
/// one person), the running batch, and the rendered PNGs.
///
/// Main-actor isolated like the model it drives: request handlers `await` into it, and each method
/// reads or changes the model synchronously, so every response sees a consistent state.
@MainActor @Observable
public final class StickerSession {
    @ObservationIgnored public let model: StickerViewModel
    @ObservationIgnored let limits: WebLimits
    @ObservationIgnored let library: LibraryFolder?
    @ObservationIgnored private let renderer = StickerRenderer()
    @ObservationIgnored private var batch: Task<Void, Never>?

    public init(model: StickerViewModel, library: URL?, limits: WebLimits) {
        self.model = model
        self.library = library.map(LibraryFolder.init(url:))
        self.limits = limits
    }

    /// True from the moment a batch is asked for until it has ended (finished or cancelled).
    /// Kept here rather than read from the model, which only flips its own flag once the batch's
    /// task has started: a client asking right after "process" must already see it running.
    public private(set) var isProcessing = false

    func snapshot() -> StickersSnapshot {
        let progress = model.progress
        return StickersSnapshot(
            photos: model.selection.map { StickersSnapshot.Photo($0, state: model.state(of: $0.id)) },
            progress: .init(completed: progress.completed, total: progress.total, fraction: progress.fractionCompleted),
            isProcessing: isProcessing,
            engineFailure: model.engineFailure,
            hasLibrary: library != nil,
            limits: limits
        )
    }

    // MARK: Photos

    /// Adds uploaded photos; all or none, so a refused upload changes nothing.
    func add(_ uploads: [UploadReader.Upload]) throws(WebError) {
        guard model.selection.count + uploads.count <= limits.maxPhotos else {
            throw .unprocessable("at most \(limits.maxPhotos) photos at once; \(model.selection.count) are already chosen")
        }
        model.add(uploads.map { SelectedPhoto(name: $0.name, source: .data($0.data)) })
    }

    /// Adds the library folder's photos (those not already chosen).
    func addLibraryPhotos() async throws(WebError) -> Int {
        guard let library else { throw .conflict("no library folder: start the server with --library DIR") }
        let room = max(0, limits.maxPhotos - model.selection.count)
        let found = try await library.photoFiles(limit: limits.maxPhotos)
        let chosen = Set(model.selection.compactMap { photo -> URL? in
            if case .file(let url) = photo.source { url.standardizedFileURL } else { nil }
        })
        let new = found.filter { !chosen.contains($0.standardizedFileURL) }.map(SelectedPhoto.init(file:))
        guard new.count <= room else {
            throw .unprocessable("the library has \(new.count) new photos but only \(room) more fit (at most \(limits.maxPhotos))")
        }
        model.add(new)
        return new.count
    }

    /// Adds one photo file (a saved space photo); returns its id (the existing one when the file
    /// is already chosen).
    func addFile(_ url: URL) throws(WebError) -> UUID {
        if let existing = model.selection.first(where: { $0.source == .file(url) }) { return existing.id }
        guard model.selection.count < limits.maxPhotos else {
            throw .unprocessable("at most \(limits.maxPhotos) photos at once")
        }
        let photo = SelectedPhoto(file: url)
        model.add([photo])
        return photo.id
    }

    func remove(_ id: UUID) throws(WebError) {
        _ = try photo(id)
        model.select(model.selection.filter { $0.id != id })
        Task { await renderer.forget([id]) }
    }

    func removeAll() {
        model.cancel()
        let ids = model.selection.map(\.id)
        model.select([])
        Task { await renderer.forget(ids) }
    }

    func photo(_ id: UUID) throws(WebError) -> SelectedPhoto {
        guard let photo = model.selection.first(where: { $0.id == id }) else {
            throw .notFound("no photo with id \(id.uuidString)")
        }
        return photo
    }

    /// The photo's own bytes (for its thumbnail), read once by the model.
    func originalData(_ id: UUID) async throws(WebError) -> Data {
        let photo = try photo(id)
        guard let data = await model.loadPhoto(photo) else {
            throw .unprocessable(model.invalidPhotos[id]?.reason ?? "the photo cannot be read")
        }
        return data
    }

    // MARK: Processing

    /// Starts processing every pending photo in the background; returns at once.
    func startProcessing() {
        guard batch == nil else { return }
        isProcessing = true
        batch = Task {
            await model.processAllPhotos()
            isProcessing = false
            batch = nil
        }
    }

    func cancel() {
        model.cancel()
        batch?.cancel()
    }

    // MARK: Results

    func rendered(_ id: UUID) async throws(WebError) -> StickerRenderer.Rendered {
        let photo = try photo(id)
        switch model.state(of: photo.id) {
        case .pending:
            throw .conflict("\(photo.name) is not processed yet")
        case .invalid(let problem):
            throw .conflict("\(photo.name) cannot become a sticker: \(problem.reason)")
        case .engineFailed(let reason):
            throw .conflict("\(photo.name) was not made: the cut-out engine failed (\(reason))")
        case .processed(let processed):
            do {
                return try await renderer.rendered(processed, id: id)
            } catch {
                throw .unprocessable("\(photo.name) could not be encoded: \(error)")
            }
        }
    }

    /// Redraws one processed sticker in `style` (no network); the pack and the images have it from
    /// then on.
    func restyle(_ id: UUID, with style: StickerStyle) async throws(WebError) {
        let photo = try photo(id)
        guard case .processed = model.state(of: id) else { throw .conflict("\(photo.name) is not processed yet") }
        guard await model.restyle(id, with: style) else {
            throw .conflict("\(photo.name) cannot be restyled: process it again")
        }
        await renderer.forget([id])
    }

    /// The pack of every processed photo, in selection order, as ZIP bytes (the model's own
    /// export, so the download holds exactly what `stickers make` writes).
    func pack() async throws(WebError) -> Data {
        guard !model.processedPhotos.isEmpty else {
            throw .conflict("no processed stickers yet: process the photos first")
        }
        let model = model
        return try await PackWriter.zip { url in try await model.exportPack(to: url) }
    }

    // MARK: Progress

    /// Snapshots of the tab: one now, then one after each change, ending with the first snapshot
    /// taken while no batch runs. Bounded by the batch, so a stream never outlives its work.
    func updates() -> AsyncStream<StickersSnapshot> {
        let (stream, continuation) = AsyncStream.makeStream(of: StickersSnapshot.self,
                                                            bufferingPolicy: .bufferingNewest(8))
        let task = Task {
            while !Task.isCancelled {
                let (changed, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
                let snapshot = withObservationTracking {
                    self.snapshot()
                } onChange: {
                    signal.yield()
                }
                continuation.yield(snapshot)
                if !snapshot.isProcessing { break }
                for await _ in changed { break }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
