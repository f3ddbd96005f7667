import ErrorReasons
import Foundation
import Logging
import Observation
import Raster
import StickerKit
import StickerLibrary

/// Everything the Stickers tab does, free of HTTP, for any front to drive (the web app's routes,
/// a SwiftUI view, a test): adding photos (uploads stored once in the library and de-duplicated
/// by content, folder photos, saved space photos), processing them, restyling and re-cutting,
/// choosing subjects, building and recording packs, and the tab's state as a stream of updates.
///
/// Main-actor isolated like the model it drives: each method reads or changes the state
/// synchronously between its `await`s, so every caller sees a consistent picture. The heavy work
/// (the engine, file copies, pack building) runs off the main actor in the model and helpers.
@MainActor @Observable
public final class StickersService {
    /// One uploaded photo: its display name and bytes.
    nonisolated public struct Upload: Sendable {
        public var name: String
        public var data: Data
        public init(name: String, data: Data) {
            self.name = name
            self.data = data
        }
    }

    /// The tab at one moment: every photo with its state, in order, and the batch's progress.
    nonisolated public struct Overview: Sendable {
        nonisolated public struct Photo: Sendable {
            public var photo: SelectedPhoto
            public var state: StickerViewModel.PhotoState
        }
        public var photos: [Photo]
        public var progress: StickerViewModel.Progress
        /// True from the moment a batch is asked for until it has ended.
        public var isProcessing: Bool
        /// Why the engine failed (the cut-out model cannot run), when it did.
        public var engineFailure: String?
        /// Whether a photo folder is configured, so `addFolderPhotos()` can work.
        public var hasPhotoFolder: Bool
    }

    /// A pack built for a download: its bytes and the file name to give them.
    nonisolated public struct PackDownload: Sendable {
        public var data: Data
        public var fileName: String
    }

    @ObservationIgnored public let model: StickerViewModel
    /// The most photos the tab holds at once.
    @ObservationIgnored public let maxPhotos: Int
    /// The folder "Use library photos" adds (`serve --photos`).
    @ObservationIgnored let photoFolder: URL?
    /// Where the tab's photos and results are kept between runs (`nil`: this run only).
    @ObservationIgnored let store: StickerLibrary?
    @ObservationIgnored let packFolders: PackFolders
    @ObservationIgnored let logger: Logger
    @ObservationIgnored private var batch: Task<Void, Never>?
    /// Each photo's content digest, by which its result is recorded in the library.
    @ObservationIgnored private var digests: [SelectedPhoto.ID: String] = [:]
    /// Photos whose current result the library already holds.
    @ObservationIgnored private var recorded: Set<SelectedPhoto.ID> = []
    /// Set by `stopProcessing()`: the app is stopping, nothing new starts.
    @ObservationIgnored private var isStopping = false

    /// True from the moment a batch is asked for until it has ended (finished or cancelled).
    /// Kept here rather than read from the model, which only flips its own flag once the batch's
    /// task has started: a client asking right after "process" must already see it running.
    public private(set) var isProcessing = false

    /// - Parameters:
    ///   - photoFolder: the folder of photos `addFolderPhotos()` adds.
    ///   - store: the library the photos and their stickers are kept in across restarts.
    ///   - packFolders: where packs are built for a download.
    public init(model: StickerViewModel, maxPhotos: Int, photoFolder: URL? = nil, store: StickerLibrary? = nil,
                packFolders: PackFolders = .temporary, logger: Logger = Logger(label: "stickers.app.stickers")) {
        self.model = model
        self.maxPhotos = maxPhotos
        self.photoFolder = photoFolder
        self.store = store
        self.packFolders = packFolders
        self.logger = logger
    }

    /// Shows what the library holds from earlier runs (the model's `restore(from:)`): the photos
    /// and their stickers as last seen, the subjects chosen and the style picked included.
    public func restore() async throws(LibraryError) {
        guard let store else { return }
        let restored = try await model.restore(from: store)
        digests = restored.digests
        recorded = restored.recorded
    }

    public var overview: Overview {
        Overview(photos: model.selection.map { Overview.Photo(photo: $0, state: model.state(of: $0.id)) },
                 progress: model.progress, isProcessing: isProcessing, engineFailure: model.engineFailure,
                 hasPhotoFolder: photoFolder != nil)
    }

    // MARK: Photos

    /// Adds uploaded photos; all or none, so a refused upload changes nothing. With a library,
    /// each upload is stored once in its files (by digest: the same photo uploaded again is the
    /// photo already there) and read from there.
    public func add(_ uploads: [Upload]) async throws(ServiceError) {
        guard model.selection.count + uploads.count <= maxPhotos else {
            throw .unusable("at most \(maxPhotos) photos at once; \(model.selection.count) are already chosen")
        }
        guard let store else {
            model.add(uploads.map { SelectedPhoto(name: $0.name, source: .data($0.data)) })
            return
        }
        let stored: [StoredUpload]
        do {
            stored = try await Self.storeUploads(uploads, in: store)
        } catch {
            throw .notKept("the upload could not be stored: \(error)")
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

    private struct StoredUpload: Sendable {
        var upload: Upload
        var digest: String
        var file: String
    }

    @concurrent private static func storeUploads(_ uploads: [Upload], in store: StickerLibrary) async throws(LibraryError) -> [StoredUpload] {
        var stored: [StoredUpload] = []
        for upload in uploads {
            let ext = ImageFormat.sniff(upload.data).map { "\($0)" } ?? "bin"
            stored.append(StoredUpload(upload: upload, digest: ContentDigest(upload.data).hex,
                                       file: try store.files.store(upload.data, extension: ext)))
        }
        return stored
    }

    /// Adds photos to the library's list (after the model took them).
    private func remember(_ photos: [LibraryPhoto]) async throws(ServiceError) {
        guard let store, !photos.isEmpty else { return }
        for photo in photos { digests[photo.id] = photo.digest }
        do { try await store.addPhotos(photos) } catch {
            throw .notKept("the library could not record the photos: \(error)")
        }
    }

    /// The library records of photo files (folder and space photos): their digest and size.
    private static func fileRecords(_ photos: [SelectedPhoto], origin: LibraryPhoto.Origin) async -> [LibraryPhoto] {
        await records(ofFiles: photos.compactMap { photo in
            if case .file(let url) = photo.source { FileRecordInput(id: photo.id, name: photo.name, url: url) } else { nil }
        }, origin: origin)
    }

    private struct FileRecordInput: Sendable {
        var id: UUID
        var name: String
        var url: URL
    }

    @concurrent private static func records(ofFiles files: [FileRecordInput], origin: LibraryPhoto.Origin) async -> [LibraryPhoto] {
        files.compactMap { file in
            guard let data = try? Data(contentsOf: file.url, options: .mappedIfSafe) else { return nil }
            return LibraryPhoto(id: file.id, digest: ContentDigest(data).hex, name: file.name, byteCount: data.count,
                                origin: origin, sourcePath: file.url.path, position: 0)
        }
    }

    /// Adds the photo folder's photos and clips (those not already chosen); returns how many.
    @discardableResult
    public func addFolderPhotos() async throws(ServiceError) -> Int {
        guard let photoFolder else { throw .notReady("no photo folder: start the server with --photos DIR") }
        let room = max(0, maxPhotos - model.selection.count)
        let found = try await Self.photoFiles(in: photoFolder, limit: maxPhotos)
        let chosen = Set(model.selection.compactMap { photo -> URL? in
            if case .file(let url) = photo.source { url.standardizedFileURL } else { nil }
        })
        let new = found.filter { !chosen.contains($0.standardizedFileURL) }.map(SelectedPhoto.init(file:))
        guard new.count <= room else {
            throw .unusable("the library has \(new.count) new photos but only \(room) more fit (at most \(maxPhotos))")
        }
        model.add(new)
        if store != nil { try await remember(await Self.fileRecords(new, origin: .folder)) }
        return new.count
    }

    /// The folder's photo and clip files (StickerKit's `PhotoFolder`, the scanner `make` uses too),
    /// read off the main actor: a clip is processed like a photo (told by its bytes when processed).
    @concurrent private static func photoFiles(in folder: URL, limit: Int) async throws(ServiceError) -> [URL] {
        do {
            return try PhotoFolder(folder).photoFiles(limit: limit, clips: true)
        } catch {
            throw .notFound(error.description)
        }
    }

    /// Adds one photo file (a saved space photo); returns its id (the existing one when the file
    /// is already chosen).
    public func addFile(_ url: URL) async throws(ServiceError) -> SelectedPhoto.ID {
        if let existing = model.selection.first(where: { $0.source == .file(url) }) { return existing.id }
        guard model.selection.count < maxPhotos else {
            throw .unusable("at most \(maxPhotos) photos at once")
        }
        let photo = SelectedPhoto(file: url)
        model.add([photo])
        if store != nil { try await remember(await Self.fileRecords([photo], origin: .space)) }
        return photo.id
    }

    public func remove(_ id: SelectedPhoto.ID) async throws(ServiceError) {
        _ = try photo(id)
        model.select(model.selection.filter { $0.id != id })
        recorded.remove(id)
        do { try await store?.removePhotos([id]) } catch {
            logger.error("the library could not forget a removed photo", metadata: ["reason": "\(error)"])
        }
    }

    public func removeAll() async {
        model.cancel()
        let ids = model.selection.map(\.id)
        model.select([])
        recorded.subtract(ids)
        do { try await store?.removeAllPhotos() } catch {
            logger.error("the library could not forget the removed photos", metadata: ["reason": "\(error)"])
        }
    }

    public func photo(_ id: SelectedPhoto.ID) throws(ServiceError) -> SelectedPhoto {
        guard let photo = model.selection.first(where: { $0.id == id }) else {
            throw .notFound("no photo with id \(id.uuidString)")
        }
        return photo
    }

    /// The photo's own bytes (for its thumbnail), read when asked by the model.
    public func originalData(_ id: SelectedPhoto.ID) async throws(ServiceError) -> Data {
        let photo = try photo(id)
        guard let data = await model.loadPhoto(photo) else {
            throw .unusable(model.state(of: id).problem?.reason ?? "the photo cannot be read")
        }
        return data
    }

    // MARK: Processing

    /// Starts processing every pending photo in the background; returns at once. Once the app
    /// is stopping, nothing new starts.
    public func startProcessing() {
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

    /// For the app's orderly stop: cancels the running batch (it ends at a photo boundary),
    /// refuses new ones, and returns once the batch has ended and its finished photos are recorded.
    public func stopProcessing() async {
        isStopping = true
        guard let running = batch else { return }
        running.cancel()
        await running.value
    }

    public func cancel() {
        model.cancel()
        batch?.cancel()
    }

    /// Records the photos finished (or restyled, re-cut) since the last call: their PNGs copied
    /// into the library's files, their results in its database (one transaction). A failure is
    /// logged: the photos stay on screen.
    func recordResults() async {
        guard let store else { return }
        // Marked before the write, so a second call meanwhile does not record them again.
        let due = digests.filter { id, _ in
            guard !recorded.contains(id) else { return false }
            return model.state(of: id).isVerdict
        }
        guard !due.isEmpty else { return }
        recorded.formUnion(due.keys)
        do {
            try await model.record(due, in: store)
        } catch {
            logger.error("the library could not record the results", metadata: ["reason": "\(error)"])
        }
    }

    // MARK: Results

    /// The processed photo's files, or why there are none.
    func files(of id: SelectedPhoto.ID) throws(ServiceError) -> (photo: SelectedPhoto, files: StickerFiles) {
        let photo = try photo(id)
        switch model.state(of: id) {
        case .waiting, .working:
            throw .notReady("\(photo.name) is not processed yet")
        case .invalid(let problem):
            throw .notReady("\(photo.name) cannot become a sticker: \(problem.reason)")
        case .engineFailed(let reason):
            throw .notReady("\(photo.name) was not made: the cut-out engine failed (\(reason))")
        case .done(let files, _):
            return (photo, files)
        }
    }

    /// One of the photo's PNGs, read from the file the batch wrote it to when it finished (the
    /// PNGs are made once, by the cache, through StickerKit's one path: nothing is rendered here).
    public func png(_ id: SelectedPhoto.ID, _ kind: StickerPNGs.Kind) async throws(ServiceError) -> Data {
        let (photo, files) = try files(of: id)
        // A clip's PNGs are its first frame (`animatedSticker(_:)` is the animation).
        let sticker = files.isAnimated ? files.gradient : files.sticker
        guard let url = kind == .sticker ? sticker : kind == .gradient ? files.gradient : files.mask else {
            throw .notFound("\(photo.name) has no \(kind.rawValue) picture")
        }
        do {
            return try await Self.read(url)
        } catch {
            throw .unusable("\(photo.name)'s \(kind.rawValue) picture cannot be read: \(ErrorReason.of(error))")
        }
    }

    @concurrent static func read(_ url: URL) async throws -> Data {
        try Data(contentsOf: url)
    }

    /// Redraws one processed sticker in `style` (no network: from the cut-out the cache kept);
    /// the pack, the images and the library have it from then on.
    public func restyle(_ id: SelectedPhoto.ID, with style: StickerStyle) async throws(ServiceError) {
        try await makeVariant(of: id, "restyled") { model throws(VariantError) in try await model.restyle(id, with: style) }
    }

    /// Makes a variant of one processed photo with `make` (a restyle, a re-cut, an edit) and
    /// records it: the pack, the images and the library have it from then on.
    func makeVariant(of id: SelectedPhoto.ID, _ verb: String,
                     _ make: (StickerViewModel) async throws(VariantError) -> Void) async throws(ServiceError) {
        let (photo, _) = try files(of: id)
        do {
            try await make(model)
        } catch {
            throw Self.variantFailure(photo, verb, error)
        }
        recorded.remove(id)
        await recordResults()
    }

    /// The error for a variant (restyle, re-cut, edit) that could not be made, with its reason.
    private static func variantFailure(_ photo: SelectedPhoto, _ verb: String, _ error: VariantError) -> ServiceError {
        let message = "\(photo.name) cannot be \(verb): \(error)"
        return switch error {
        case .notProcessed, .nothingKept, .engine, .busy: .notReady(message)
        case .choice(let choice): .unusable(choice.description)
        case .edits, .nothingLeft, .nothingAt: .unusable(message)
        case .caption(let caption): caption.isUsageError ? .unusable(message) : .notReady(message)
        case .notWritten: .notKept(message)
        }
    }

    /// A processed photo's subjects and which of them its sticker keeps.
    public func subjects(_ id: SelectedPhoto.ID) async throws(ServiceError) -> PhotoSubjects {
        let (photo, _) = try files(of: id)
        guard let subjects = await model.subjects(of: id) else {
            throw .notReady("\(photo.name) kept no subjects to choose from: process it again")
        }
        return subjects
    }

    /// Cuts one processed sticker out again keeping the subjects `choice` names (no network: from
    /// the subjects the cache kept); the pack, the images and the library have it from then on.
    public func chooseSubjects(_ id: SelectedPhoto.ID, _ choice: SubjectChoice) async throws(ServiceError) {
        try await makeVariant(of: id, "cut out again") { model throws(VariantError) in try await model.chooseSubjects(id, choice) }
    }

    // MARK: Packs

    /// The pack of every processed photo and clip (its animated WebP), in selection order, as ZIP
    /// bytes (the model's own export, so the download holds exactly what `stickers make` writes),
    /// recorded in the library.
    public func zipPack() async throws(ServiceError) -> PackDownload {
        let names = model.processedNames
        guard !names.isEmpty else { throw .notReady("no processed stickers yet: process the photos first") }
        let model = model
        let fileName = "stickers.zip"
        let data = try await packFolders.build(fileName) { url in try await model.exportPack(to: url) }
        await recordDownload(data, fileName: fileName, format: "zip", stickers: names)
        return PackDownload(data: data, fileName: fileName)
    }

    /// A pack for WhatsApp, Telegram or Signal of every processed photo, in selection order,
    /// recorded in the library. More stickers than one pack holds is refused (the CLI splits them).
    public func messengerPack(for platform: MessengerPlatform) async throws(ServiceError) -> PackDownload {
        let inputs = model.selection.compactMap { photo in
            // Clips are in the animated packs of their own (`animatedPack(for:)`).
            model.state(of: photo.id).files.flatMap { $0.isAnimated ? nil : MessengerPack.Input(name: photo.name, file: $0.sticker) }
        }
        guard !inputs.isEmpty else {
            throw .notReady(model.hasAnimatedStickers ? "no still stickers: the clips are in the animated pack"
                                                      : "no processed stickers yet: process the photos first")
        }
        let rules = platform.rules
        guard inputs.count <= rules.stickersPerPack.upperBound else {
            throw .unusable("a \(platform.displayName) pack holds at most \(rules.stickersPerPack.upperBound) stickers "
                            + "and \(inputs.count) are processed: remove some, or use `stickers make --for \(platform.rawValue)`")
        }
        let fileName = "stickers.\(rules.fileExtension)"
        let options = MessengerPack.Options(platform: platform, title: "Stickers", author: "Stickers",
                                            concurrency: ProcessInfo.processInfo.activeProcessorCount)
        let data = try await packFolders.build(fileName) { url in
            do {
                _ = try await MessengerPack.make(inputs, options: options, output: url)
            } catch let failure as MessengerPack.Failure {
                throw ServiceError.unusable(failure.reason)
            }
        }
        await recordDownload(data, fileName: fileName, format: platform.rawValue, stickers: inputs.map(\.name))
        return PackDownload(data: data, fileName: fileName)
    }

    /// Records a pack download in the library's packs; a failure to record is logged, the download
    /// still goes out.
    func recordDownload(_ data: Data, fileName: String, format: String, stickers: [String]) async {
        guard let store else { return }
        do {
            try await PackRecords.recordDownload(data, fileName: fileName, format: format, stickers: stickers,
                                                 identity: model.cache.identity, in: store)
        } catch {
            logger.error("the library could not record the pack download", metadata: ["reason": "\(error)", "file": "\(fileName)"])
        }
    }

    // MARK: Progress

    /// The tab's state: one overview now, then one after each change, ending with the first one
    /// taken while no batch runs. Bounded by the batch, so a stream never outlives its work; the
    /// web app sends each as a server-sent event.
    public func updates() -> AsyncStream<Overview> {
        let (stream, continuation) = AsyncStream.makeStream(of: Overview.self, bufferingPolicy: .bufferingNewest(8))
        let task = Task {
            while !Task.isCancelled {
                let (changed, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
                let overview = withObservationTracking {
                    self.overview
                } onChange: {
                    signal.yield()
                }
                continuation.yield(overview)
                if !overview.isProcessing { break }
                for await _ in changed { break }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
