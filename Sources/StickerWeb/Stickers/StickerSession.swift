import ErrorReasons
import Foundation
import Observation
import Raster
import StickerApp
import StickerKit
import StickerLibrary

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
    /// Where the tab's photos and results are kept between runs (`nil`: this run only).
    @ObservationIgnored let store: StickerLibrary?
    @ObservationIgnored private var batch: Task<Void, Never>?
    /// Each photo's content digest, for recording its result.
    @ObservationIgnored private var digests: [UUID: String] = [:]
    /// Results already recorded in the library.
    @ObservationIgnored private var recorded: Set<UUID> = []

    /// - Parameters:
    ///   - library: the folder of photos "Use library photos" adds (`serve --photos`).
    ///   - store: the library the photos and their stickers are kept in across restarts.
    public init(model: StickerViewModel, library: URL?, limits: WebLimits, store: StickerLibrary? = nil) {
        self.model = model
        self.library = library.map(LibraryFolder.init(url:))
        self.limits = limits
        self.store = store
    }

    /// Shows what the library holds from earlier runs (the model's `restore(from:)`): the photos
    /// and their stickers as last seen, the subjects chosen and the style picked included.
    public func restore() async throws(LibraryError) {
        guard let store else { return }
        let restored = try await model.restore(from: store)
        digests = restored.digests
        recorded = restored.recorded
    }

    /// Records the photos finished (or restyled, re-cut) since the last call: their PNGs copied
    /// into the library's files, their results in its database (one transaction).
    func recordResults() async {
        guard let store else { return }
        // Marked before the write, so a second call meanwhile does not record them again.
        let due = digests.filter { id, _ in
            guard !recorded.contains(id) else { return false }
            switch model.state(of: id) {
            case .processed, .invalid: return true
            case .pending, .engineFailed: return false
            }
        }
        guard !due.isEmpty else { return }
        recorded.formUnion(due.keys)
        do {
            try await model.record(due, in: store)
        } catch {
            FileHandle.standardError.write(Data("stickers: the library could not record the results: \(error)\n".utf8))
        }
    }

    /// Adds photos to the library's list (after the model took them).
    private func remember(_ photos: [LibraryPhoto]) async throws(WebError) {
        guard let store, !photos.isEmpty else { return }
        for photo in photos { digests[photo.id] = photo.digest }
        do { try await store.addPhotos(photos) } catch {
            throw .insufficientStorage("the library could not record the photos: \(error)")
        }
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

    /// Adds uploaded photos; all or none, so a refused upload changes nothing. With a library,
    /// each upload is stored once in its files (by digest: the same photo uploaded again is the
    /// photo already there) and read from there.
    func add(_ uploads: [UploadReader.Upload]) async throws(WebError) {
        guard model.selection.count + uploads.count <= limits.maxPhotos else {
            throw .unprocessable("at most \(limits.maxPhotos) photos at once; \(model.selection.count) are already chosen")
        }
        guard let store else {
            model.add(uploads.map { SelectedPhoto(name: $0.name, source: .data($0.data)) })
            return
        }
        let stored: [(upload: UploadReader.Upload, digest: String, file: String)]
        do {
            stored = try await Self.storeUploads(uploads, in: store)
        } catch {
            throw .insufficientStorage("the upload could not be stored: \(error)")
        }
        let present = Set(model.selection.compactMap { digests[$0.id] })
        var seen = Set<String>()
        var photos: [SelectedPhoto] = []
        var records: [LibraryPhoto] = []
        for item in stored where !present.contains(item.digest) && seen.insert(item.digest).inserted {
            let photo = SelectedPhoto(name: item.upload.name, source: .file(store.files.url(item.file)))
            photos.append(photo)
            records.append(LibraryPhoto(id: photo.id, digest: item.digest, name: item.upload.name, byteCount: item.upload.data.count,
                                        origin: .upload, storedFile: item.file, position: 0))
        }
        model.add(photos)
        try await remember(records)
    }

    @concurrent private static func storeUploads(_ uploads: [UploadReader.Upload], in store: StickerLibrary) async throws(LibraryError)
        -> [(upload: UploadReader.Upload, digest: String, file: String)] {
        var stored: [(upload: UploadReader.Upload, digest: String, file: String)] = []
        for upload in uploads {
            let ext = ImageFormat.sniff(upload.data).map { "\($0)" } ?? "bin"
            stored.append((upload, ContentDigest(upload.data).hex, try store.files.store(upload.data, extension: ext)))
        }
        return stored
    }

    /// The library records of photo files (folder and space photos): their digest and size.
    private static func fileRecords(_ photos: [SelectedPhoto], origin: LibraryPhoto.Origin) async -> [LibraryPhoto] {
        await records(ofFiles: photos.compactMap { photo in
            if case .file(let url) = photo.source { (photo.id, photo.name, url) } else { nil }
        }, origin: origin)
    }

    @concurrent private static func records(ofFiles files: [(id: UUID, name: String, url: URL)],
                                            origin: LibraryPhoto.Origin) async -> [LibraryPhoto] {
        files.compactMap { file in
            guard let data = try? Data(contentsOf: file.url, options: .mappedIfSafe) else { return nil }
            return LibraryPhoto(id: file.id, digest: ContentDigest(data).hex, name: file.name, byteCount: data.count,
                                origin: origin, sourcePath: file.url.path, position: 0)
        }
    }

    /// Adds the library folder's photos (those not already chosen).
    func addLibraryPhotos() async throws(WebError) -> Int {
        guard let library else { throw .conflict("no photo folder: start the server with --photos DIR") }
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
        if store != nil { try await remember(await Self.fileRecords(new, origin: .folder)) }
        return new.count
    }

    /// Adds one photo file (a saved space photo); returns its id (the existing one when the file
    /// is already chosen).
    func addFile(_ url: URL) async throws(WebError) -> UUID {
        if let existing = model.selection.first(where: { $0.source == .file(url) }) { return existing.id }
        guard model.selection.count < limits.maxPhotos else {
            throw .unprocessable("at most \(limits.maxPhotos) photos at once")
        }
        let photo = SelectedPhoto(file: url)
        model.add([photo])
        if store != nil { try await remember(await Self.fileRecords([photo], origin: .space)) }
        return photo.id
    }

    func remove(_ id: UUID) async throws(WebError) {
        _ = try photo(id)
        model.select(model.selection.filter { $0.id != id })
        recorded.remove(id)
        try? await store?.removePhotos([id])
    }

    func removeAll() async {
        model.cancel()
        let ids = model.selection.map(\.id)
        model.select([])
        recorded.subtract(ids)
        try? await store?.removeAllPhotos()
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

    /// Starts processing every pending photo in the background; returns at once. Once the server
    /// is stopping, nothing new starts.
    func startProcessing() {
        guard batch == nil, !isStopping else { return }
        isProcessing = true
        batch = Task {
            await model.processAllPhotos()
            // In a task of its own: a cancelled batch still records the photos it finished (the
            // copies and the transaction would refuse to run in the cancelled one).
            await Task { await recordResults() }.value
            isProcessing = false
            batch = nil
        }
    }

    /// Set by `stopProcessing()`: the server is stopping.
    @ObservationIgnored private var isStopping = false

    /// For the server's orderly stop: cancels the running batch (it ends at a photo boundary),
    /// refuses new ones, and returns once the batch has ended and its finished photos are recorded.
    public func stopProcessing() async {
        isStopping = true
        guard let running = batch else { return }
        running.cancel()
        await running.value
    }

    func cancel() {
        model.cancel()
        batch?.cancel()
    }

    // MARK: Results

    /// One of the photo's PNGs, read from the file the batch wrote it to when it finished (the
    /// PNGs are made once, by the cache, through StickerKit's one path: there is nothing to render
    /// here).
    func png(_ id: UUID, _ kind: StickerPNGs.Kind) async throws(WebError) -> Data {
        let photo = try photo(id)
        switch model.state(of: photo.id) {
        case .pending:
            throw .conflict("\(photo.name) is not processed yet")
        case .invalid(let problem):
            throw .conflict("\(photo.name) cannot become a sticker: \(problem.reason)")
        case .engineFailed(let reason):
            throw .conflict("\(photo.name) was not made: the cut-out engine failed (\(reason))")
        case .processed(let files):
            guard let url = kind == .sticker ? files.sticker : kind == .gradient ? files.gradient : files.mask else {
                throw .notFound("\(photo.name) has no \(kind.rawValue) picture")
            }
            do {
                return try await Self.read(url)
            } catch {
                throw .unprocessable("\(photo.name)'s \(kind.rawValue) picture cannot be read: \(ErrorReason.of(error))")
            }
        }
    }

    @concurrent private static func read(_ url: URL) async throws -> Data {
        try Data(contentsOf: url)
    }

    /// Redraws one processed sticker in `style` (no network: from the cut-out the cache kept);
    /// the pack, the images and the library have it from then on.
    func restyle(_ id: UUID, with style: StickerStyle) async throws(WebError) {
        let photo = try photo(id)
        guard case .processed = model.state(of: id) else { throw .conflict("\(photo.name) is not processed yet") }
        guard await model.restyle(id, with: style) else {
            throw .conflict("\(photo.name) cannot be restyled: process it again")
        }
        recorded.remove(id)
        await recordResults()
    }

    /// A processed photo's subjects and which of them its sticker keeps.
    func subjects(_ id: UUID) async throws(WebError) -> SubjectsJSON {
        let photo = try photo(id)
        guard case .processed = model.state(of: id) else { throw .conflict("\(photo.name) is not processed yet") }
        guard let subjects = await model.subjects(of: id) else {
            throw .conflict("\(photo.name) kept no subjects to choose from: process it again")
        }
        return SubjectsJSON(subjects)
    }

    /// Cuts one processed sticker out again keeping the subjects `choice` names (no network: from
    /// the subjects the cache kept); the pack, the images and the library have it from then on.
    func chooseSubjects(_ id: UUID, _ choice: SubjectChoice) async throws(WebError) {
        let photo = try photo(id)
        guard case .processed = model.state(of: id) else { throw .conflict("\(photo.name) is not processed yet") }
        let done: Bool
        do {
            done = try await model.chooseSubjects(id, choice)
        } catch {
            throw .unprocessable(error.description)
        }
        guard done else { throw .conflict("\(photo.name) kept no subjects to choose from: process it again") }
        recorded.remove(id)
        await recordResults()
    }

    /// The pack of every processed photo, in selection order, as ZIP bytes (the model's own
    /// export, so the download holds exactly what `stickers make` writes).
    func pack() async throws(WebError) -> Data {
        guard !model.processedPhotos.isEmpty else {
            throw .conflict("no processed stickers yet: process the photos first")
        }
        let model = model
        let names = model.processedNames
        let data = try await PackWriter.zip { url in try await model.exportPack(to: url) }
        await recordDownload(data, fileName: "stickers.zip", format: "zip", stickers: names)
        return data
    }

    /// Records a pack download in the library's packs; a failure to record is logged, the download
    /// still goes out.
    private func recordDownload(_ data: Data, fileName: String, format: String, stickers: [String]) async {
        guard let store else { return }
        do {
            try await PackRecords.recordDownload(data, fileName: fileName, format: format, stickers: stickers,
                                                 identity: model.cache.identity, in: store)
        } catch {
            FileHandle.standardError.write(Data("stickers: the library could not record the pack download: \(error)\n".utf8))
        }
    }

    /// A pack for WhatsApp, Telegram or Signal of every processed photo, in selection order:
    /// the file's bytes and its name. More stickers than one pack holds is refused (the CLI splits them).
    func messengerPack(for platform: MessengerPlatform) async throws(WebError) -> (data: Data, fileName: String) {
        let inputs = model.selection.compactMap { photo in
            model.processedPhotos[photo.id].map { MessengerPack.Input(name: photo.name, file: $0.sticker) }
        }
        guard !inputs.isEmpty else { throw .conflict("no processed stickers yet: process the photos first") }
        let rules = platform.rules
        guard inputs.count <= rules.stickersPerPack.upperBound else {
            throw .unprocessable("a \(platform.displayName) pack holds at most \(rules.stickersPerPack.upperBound) stickers "
                                 + "and \(inputs.count) are processed: remove some, or use `stickers make --for \(platform.rawValue)`")
        }
        let fileName = "stickers.\(rules.fileExtension)"
        let options = MessengerPack.Options(platform: platform, title: "Stickers", author: "Stickers",
                                            concurrency: ProcessInfo.processInfo.activeProcessorCount)
        let data = try await PackWriter.file(named: fileName) { url in
            do {
                _ = try await MessengerPack.make(inputs, options: options, output: url)
            } catch let failure as MessengerPack.Failure {
                throw WebError.unprocessable(failure.reason)
            }
        }
        await recordDownload(data, fileName: fileName, format: platform.rawValue, stickers: inputs.map(\.name))
        return (data, fileName)
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
