import APODTestServer
import Foundation
import SpacePhotos
import Testing
@testable import StickerApp

/// A model on the fake server with its own empty library folder; retries cost no time.
private func makeModel(_ server: FakeAPODServer, count: Int = 3, maxAttempts: Int = 2) -> CatalogModel {
    let client = APODClient(configuration: APODConfiguration(
        baseURL: server.apiURL, apiKey: "test-key", environment: [:],
        connectTimeout: .seconds(120), requestTimeout: .seconds(120),
        retry: RetryPolicy(maxAttempts: maxAttempts, sleep: { _ in try Task.checkCancellation() }),
        log: { _ in }))
    let folder = FileManager.default.temporaryDirectory.appending(path: "catalog-tests-\(UUID().uuidString)")
    return CatalogModel(client: client, libraryFolder: folder, selection: .random(count: count))
}

/// Every entry of the folder, hidden ones (temporary files) included.
private func contents(of folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}

/// Yields until `condition` holds (no clock involved in what is asserted).
private func eventually(_ condition: () async -> Bool) async {
    while !(await condition()) {
        try? await Task.sleep(for: .milliseconds(5))
    }
}

@Test func loadingIsShownWhileTheCatalogLoadsThenTheItemsAppear() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server)
        await server.state.enqueueAPI(.slow(.milliseconds(100)))
        #expect(!model.isLoading)
        let load = Task { await model.updateItems() }
        await eventually { await !server.state.apiRequests.isEmpty }
        #expect(model.isLoading)
        #expect(model.items.isEmpty)
        await load.value
        #expect(!model.isLoading)
        #expect(model.items.map(\.day) == ["2024-01-01", "2024-01-02", "2024-01-03"])
        #expect(model.error == nil)
    }
}

@Test func randomDaysAreFetchedOneRequestPerDay() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server)
        model.selection = .randomDays(count: 5)
        await model.updateItems()
        #expect(model.items.count == 5)
        let asked = await server.state.apiRequests.compactMap { $0.query["date"] }
        #expect(Set(asked) == Set(model.items.map(\.day)))
    }
}

@Test func randomDaysAreDistinctAndBetweenTheFirstAPODAndYesterday() throws {
    let now = try #require(APODDay.date(from: "1995-06-20"))
    let days = CatalogModel.randomDays(count: 10, now: now).map(APODDay.string(from:))
    #expect(days == ["1995-06-16", "1995-06-17", "1995-06-18", "1995-06-19"])
    #expect(CatalogModel.randomDays(count: 3).count == 3)
}

@Test func aFailedLoadSetsTheErrorAndKeepsTheItemsListed() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server, maxAttempts: 1)
        await model.updateItems()
        #expect(model.items.count == 3)
        await server.state.enqueueAPI(.status(500))
        await model.refresh()
        #expect(model.error == .server(status: 500))
        #expect(!model.isLoading)
        #expect(model.items.count == 3)
        await model.refresh()
        #expect(model.error == nil)
    }
}

@Test func refreshReplacesTheItems() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server)
        await model.updateItems()
        #expect(model.items.count == 3)
        await server.state.enqueueAPI(.items([FakeAPODCatalog.videoWithoutThumbnail]))
        await model.refresh()
        #expect(model.items.map(\.title) == ["Video Without Thumbnail"])
    }
}

@Test func refreshAbandonsASlowLoadAndOnlyTheNewestResultLands() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server)
        await server.state.enqueueAPI(.slow(.seconds(30)))
        let slow = Task { await model.updateItems() }
        await eventually { await !server.state.apiRequests.isEmpty }
        await server.state.enqueueAPI(.items([FakeAPODCatalog.videoWithoutThumbnail]))
        await model.refresh()
        await slow.value
        #expect(model.items.map(\.title) == ["Video Without Thumbnail"])
        #expect(model.error == nil)
        #expect(!model.isLoading)
    }
}

@Test func cancellingTheCallerCancelsTheLoadItStarted() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server)
        await server.state.enqueueAPI(.slow(.seconds(30)))
        let load = Task { await model.refresh() }
        await eventually { await !server.state.apiRequests.isEmpty }
        load.cancel()
        await load.value
        #expect(!model.isLoading)
        #expect(model.items.isEmpty)
        #expect(model.error == nil)
    }
}

@Test func updateItemsWhileLoadingJoinsTheRunningLoad() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server)
        await server.state.enqueueAPI(.slow(.milliseconds(50)))
        async let first: Void = model.updateItems()
        async let second: Void = model.updateItems()
        _ = await (first, second)
        #expect(await server.state.apiRequests.count == 1)
        #expect(model.items.count == 3)
    }
}

@Test func saveWritesExactlyOneCompleteFile() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server)
        await model.updateItems()
        let photo = try #require(model.items.first)
        let file = try await model.save(photo)
        #expect(contents(of: model.libraryFolder) == ["apod-2024-01-01-the-horsehead-nebula.png"])
        #expect(try Data(contentsOf: file) == FakeAPODCatalog.pngBytes)
        #expect(model.savedFiles[photo.id] == file)
        #expect(model.savingIDs.isEmpty)

        // Saving again replaces the file; the HD image is a file of its own.
        try await model.save(photo)
        let hd = try await model.save(photo, hd: true)
        #expect(contents(of: model.libraryFolder) == [
            "apod-2024-01-01-the-horsehead-nebula-hd.jpg", "apod-2024-01-01-the-horsehead-nebula.png",
        ])
        #expect(try Data(contentsOf: hd) == FakeAPODCatalog.jpegBytes)
        try? FileManager.default.removeItem(at: model.libraryFolder)
    }
}

@Test func aVideoIsSavedAsItsThumbnailOrNotAtAll() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server)
        await model.updateItems()
        let video = try #require(model.items.first { $0.mediaType == .video })
        let file = try await model.save(video, hd: true)
        #expect(file.lastPathComponent == "apod-2024-01-03-aurora-time-lapse-thumbnail.jpg")

        await server.state.enqueueAPI(.items([FakeAPODCatalog.videoWithoutThumbnail]))
        await model.refresh()
        let videoWithoutThumbnail = try #require(model.items.first)
        await #expect(throws: CatalogSaveError.notSavable("a video without a thumbnail")) {
            try await model.save(videoWithoutThumbnail)
        }
        try? FileManager.default.removeItem(at: model.libraryFolder)
    }
}

@Test func aFailedDownloadLeavesNoFile() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server, maxAttempts: 1)
        await model.updateItems()
        let photo = try #require(model.items.first)
        await server.state.enqueueImages(.status(500))
        await #expect(throws: CatalogSaveError.download(.server(status: 500))) {
            try await model.save(photo)
        }
        await server.state.enqueueImages(.malformedJSON)
        await #expect {
            try await model.save(photo)
        } throws: { error in
            if case .download(.malformedResponse) = error as? CatalogSaveError { true } else { false }
        }
        #expect(contents(of: model.libraryFolder).isEmpty)
        #expect(model.savingIDs.isEmpty)
    }
}

@Test func aCancelledSaveLeavesNoFile() async throws {
    try await FakeAPODServer.withRunning { server in
        let model = makeModel(server)
        await model.updateItems()
        // The server sends half the image, then stalls.
        await server.state.enqueueImages(.slow(.seconds(30)))
        let photo = try #require(model.items.first)
        let save = Task { try await model.save(photo) }
        await eventually { await !server.state.imagePaths.isEmpty }
        #expect(model.savingIDs == [photo.id])
        save.cancel()
        await #expect(throws: CatalogSaveError.cancelled) { try await save.value }
        #expect(contents(of: model.libraryFolder).isEmpty)
        #expect(model.savingIDs.isEmpty)
        #expect(model.savedFiles.isEmpty)
    }
}

@Test func aWriteCancelledBeforeTheRenameLeavesNeitherFileNorTemporary() async throws {
    let folder = FileManager.default.temporaryDirectory.appending(path: "catalog-atomic-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let destination = folder.appending(path: "photo.png")
    let outcome = await Task { () async -> LibraryFileWriter.Failure? in
        withUnsafeCurrentTask { $0?.cancel() }
        do throws(LibraryFileWriter.Failure) {
            try await LibraryFileWriter.write(FakeAPODCatalog.pngBytes, to: destination)
            return nil
        } catch {
            return error
        }
    }.value
    #expect(outcome == .cancelled)
    #expect(contents(of: folder).isEmpty)
}

@Test func aWriteIntoAnUnwritablePlaceFailsCleanly() async {
    let blocker = FileManager.default.temporaryDirectory.appending(path: "catalog-blocker-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: blocker.path, contents: Data("a file, not a folder".utf8))
    defer { try? FileManager.default.removeItem(at: blocker) }
    await #expect {
        try await LibraryFileWriter.write(Data([1, 2, 3]), to: blocker.appending(path: "photo.png"))
    } throws: { error in
        // The failure keeps its parts: which path, and why.
        guard case .io(let path, let reason)? = error as? LibraryFileWriter.Failure else { return false }
        return path == blocker.path && !reason.isEmpty
    }
}
