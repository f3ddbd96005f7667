import Foundation
import Raster
import Observation
import SpacePhotos

/// The space photo catalog as a UI sees it: the listed photos, whether a load is running, the
/// last error, the days of a range the server kept failing, favourites, and saving photos into
/// the library folder. With a `CatalogStore`, favourites persist and, when the API cannot be
/// reached, the photos seen before are listed instead (`isShowingSeenBefore`).
///
/// Main-actor state changed only synchronously after each `await`, so an observer always sees a
/// consistent model; the network work runs off the main actor (the client's entry points are
/// `@concurrent`).
@Observable
public final class CatalogModel {
    /// Which photos a load asks for.
    public enum Selection: Sendable, Equatable {
        /// `count` random days in one request (the API's `count`, 1…100).
        case random(count: Int)
        /// `count` distinct random days since APOD began, fetched concurrently (one request a
        /// day: mind the rate limit of a demo key).
        case randomDays(count: Int)
        /// These days, fetched concurrently.
        case days([Date])
        /// Every day from `start` through `end` in one request, day by day if the server fails
        /// it (see `APODClient.photos(from:through:)`).
        case range(start: Date, end: Date)
    }

    public private(set) var items: [SpacePhoto] = []
    public private(set) var isLoading = false
    /// The last load's failure; cleared when a load succeeds. Items from before stay listed.
    public private(set) var error: APODError?
    /// Days of the last range load that the server kept failing (skipped; the others are listed).
    public private(set) var failedDays: [FailedDay] = []
    /// True when the last load failed and `items` are the photos seen before, from the store.
    public private(set) var isShowingSeenBefore = false
    /// The favourite photos, most recently added first.
    public private(set) var favorites: [SpacePhoto] = []
    /// Why the store could not be read or written, in words; nil after it worked.
    public private(set) var storeError: String?
    /// Photos being downloaded right now.
    public var savingIDs: Set<SpacePhoto.ID> { Set(savesInFlight.keys) }
    /// Saves running per photo (the standard and the HD image may be saved at once).
    private var savesInFlight: [SpacePhoto.ID: Int] = [:]
    /// Where each saved photo was written.
    public private(set) var savedFiles: [SpacePhoto.ID: URL] = [:]

    public var selection: Selection
    /// Saved images go here (created when needed).
    public let libraryFolder: URL
    public let client: APODClient
    @ObservationIgnored private let store: (any CatalogStore)?

    @ObservationIgnored private var loadTask: Task<Void, Never>?
    /// Identifies the newest load, so a superseded one never writes its result.
    @ObservationIgnored private var loadGeneration = 0

    /// Puts back which photos an earlier session saved (the library's record), files that still exist.
    public func restoreSaved(_ files: [SpacePhoto.ID: URL]) {
        for (id, url) in files where FileManager.default.fileExists(atPath: url.path) { savedFiles[id] = url }
    }

    public init(client: APODClient, libraryFolder: URL, selection: Selection = .random(count: 12),
                store: (any CatalogStore)? = nil) {
        self.client = client
        self.libraryFolder = libraryFolder
        self.selection = selection
        self.store = store
    }

    /// Loads `selection` and replaces `items` with the result. A call while a load is running
    /// waits for that load instead of starting another. Cancelling the caller cancels a load it
    /// started (a UI's task ending with its view stops the request).
    public func updateItems() async {
        if let loadTask {
            await loadTask.value
        } else {
            await run(startLoad())
        }
    }

    /// Starts a fresh load now, abandoning one in flight, and replaces `items` when it succeeds.
    public func refresh() async {
        loadTask?.cancel()
        await run(startLoad())
    }

    /// Waits for `task`, passing the caller's cancellation on to it.
    private func run(_ task: Task<Void, Never>) async {
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private func startLoad() -> Task<Void, Never> {
        loadGeneration += 1
        let generation = loadGeneration
        isLoading = true
        let task = Task { await load(generation: generation) }
        loadTask = task
        return task
    }

    private func load(generation: Int) async {
        let selection = selection
        let result: Result<DayRangePhotos, APODError>
        do {
            result = .success(try await fetch(selection))
        } catch {
            result = .failure(error)
        }
        // What the store remembers, read before the synchronous step below.
        var seenBefore: [SpacePhoto]?
        if case .failure(let failure) = result, failure != .cancelled, let store {
            do {
                seenBefore = try await store.seenPhotos(days: Self.days(of: selection))
            } catch {
                storeError = "the photos seen before could not be read: \(error)"
            }
        }
        // Everything below is one synchronous main-actor step.
        guard generation == loadGeneration else { return }
        loadTask = nil
        isLoading = false
        switch result {
        case .success(let range):
            items = range.photos
            failedDays = range.failedDays
            isShowingSeenBefore = false
            error = nil
        case .failure(.cancelled):
            break
        case .failure(let failure):
            error = failure
            if let seenBefore, !seenBefore.isEmpty {
                items = seenBefore
                failedDays = []
                isShowingSeenBefore = true
            }
        }
        if case .success(let range) = result, let store, !range.photos.isEmpty {
            do { try await store.rememberSeen(range.photos) } catch {
                storeError = "the photos could not be remembered: \(error)"
            }
        }
    }

    private func fetch(_ selection: Selection) async throws(APODError) -> DayRangePhotos {
        switch selection {
        case .random(let count): DayRangePhotos(photos: try await client.randomPhotos(count: count))
        case .randomDays(let count): DayRangePhotos(photos: try await client.photos(for: Self.randomDays(count: count)))
        case .days(let days): DayRangePhotos(photos: try await client.photos(for: days))
        case .range(let start, let end): try await client.photos(from: start, through: end)
        }
    }

    /// The days a selection asks for, to look up the photos seen before (nil: any day).
    nonisolated static func days(of selection: Selection) -> Set<String>? {
        switch selection {
        case .random, .randomDays: nil
        case .days(let days): Set(days.map(APODDay.string(from:)))
        case .range(let start, let end):
            Set(stride(from: start.timeIntervalSince1970, through: end.timeIntervalSince1970, by: 86_400).map {
                APODDay.string(from: Date(timeIntervalSince1970: $0))
            })
        }
    }

    // MARK: Favourites

    /// Reads the favourites from the store (call once when the UI appears).
    public func loadFavorites() async {
        guard let store else { return }
        do {
            favorites = try await store.favorites()
            storeError = nil
        } catch {
            storeError = "the favourites could not be read: \(error)"
        }
    }

    public func isFavorite(_ id: SpacePhoto.ID) -> Bool {
        favorites.contains { $0.id == id }
    }

    /// Adds the photo to the favourites (first), or removes it if it is one; the store is updated.
    public func toggleFavorite(_ photo: SpacePhoto) async {
        if let index = favorites.firstIndex(where: { $0.id == photo.id }) {
            favorites.remove(at: index)
        } else {
            favorites.insert(photo, at: 0)
        }
        guard let store else { return }
        do {
            try await store.setFavorites(favorites)
            storeError = nil
        } catch {
            storeError = "the favourites could not be saved: \(error)"
        }
    }

    /// `count` distinct days from APOD's first day to yesterday (today's photo may not be out
    /// yet where the API lives).
    nonisolated static func randomDays(count: Int, now: Date = Date()) -> [Date] {
        let first = Int(APODDay.firstDay.timeIntervalSince1970 / 86_400)
        let last = Int(now.timeIntervalSince1970 / 86_400) - 1
        guard last >= first else { return [] }
        var picked = Set<Int>()
        while picked.count < min(max(count, 0), last - first + 1) {
            picked.insert(Int.random(in: first...last))
        }
        return picked.sorted().map { Date(timeIntervalSince1970: TimeInterval($0) * 86_400) }
    }

    /// Downloads `photo`'s image (the HD one when `hd` and there is one; a video's thumbnail) into
    /// `libraryFolder` and returns the file. The file appears complete or not at all: a failed
    /// or cancelled save leaves nothing behind; saving again replaces the file atomically.
    @discardableResult
    public func save(_ photo: SpacePhoto, hd: Bool = false) async throws(CatalogSaveError) -> URL {
        guard let url = photo.imageURL(hd: hd) else {
            throw .notSavable(photo.unsavableReason ?? "no image")
        }
        savesInFlight[photo.id, default: 0] += 1
        defer {
            let left = (savesInFlight[photo.id] ?? 1) - 1
            savesInFlight[photo.id] = left > 0 ? left : nil
        }

        let data: Data
        do {
            data = try await client.imageData(from: url)
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw .download(error)
        }
        // `imageData` only returns sniffable images.
        let format = ImageFormat.sniff(data) ?? .jpeg
        let destination = libraryFolder.appending(path: photo.fileName(hd: hd, format: format))
        do {
            try await LibraryFileWriter.write(data, to: destination)
        } catch {
            switch error {
            case .cancelled: throw .cancelled
            case .io(let path, let reason): throw .write(path: path, reason: reason)
            }
        }
        savedFiles[photo.id] = destination
        return destination
    }
}
