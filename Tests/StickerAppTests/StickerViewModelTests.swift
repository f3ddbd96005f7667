import Foundation
import Testing
@testable import StickerApp
import StickerKit

@Suite struct StickerViewModelTests {
    @Test func processingAllPhotosFillsResultsAndProgressReachesTotal() async {
        let model = StickerViewModel(processor: FakePhotoProcessor(), maxConcurrentJobs: 2)
        let photos = (0..<6).map { photo("p\($0)", "photo \($0)") }
        model.select(photos)
        #expect(model.progress == .init(completed: 0, total: 6))

        await model.processAllPhotos()

        #expect(model.progress == .init(completed: 6, total: 6))
        #expect(model.processedPhotos.count == 6)
        #expect(model.invalidPhotos.isEmpty)
        #expect(!model.isProcessing)
    }

    @Test func invalidPhotosAreFlaggedWithAReasonAndNeverStopTheBatch() async {
        let model = StickerViewModel(processor: FakePhotoProcessor(), maxConcurrentJobs: 2)
        let missing = SelectedPhoto(file: URL(fileURLWithPath: "/nonexistent/cat.jpg"))
        let photos = [photo("a", "good a"), photo("b", "bad b"), missing, photo("c", "good c")]
        model.select(photos)

        await model.processAllPhotos()

        #expect(model.processedPhotos.count == 2)
        #expect(model.invalidPhotos.count == 2)
        #expect(model.invalidPhotos[photos[1].id] == .unusable(.unreadable(.unsupportedFormat)))
        #expect(model.invalidPhotos[missing.id]?.reason.contains("no such file") == true)
        #expect(model.progress.isFinished)
    }

    @Test("An engine failure is reported as the engine's, not as an invalid photo, and retried by the next batch")
    func engineFailuresAreNotInvalidPhotos() async {
        let processor = FakePhotoProcessor()
        let model = StickerViewModel(processor: processor, maxConcurrentJobs: 2)
        let photos = [photo("a", "good a"), photo("b", "engine b"), photo("c", "bad c")]
        model.select(photos)

        await model.processAllPhotos()

        #expect(model.invalidPhotos.keys.sorted { $0.uuidString < $1.uuidString } == [photos[2].id])
        #expect(model.engineFailure?.contains("no saliency map") == true)
        #expect(model.state(of: photos[1].id) == .engineFailed(reason: model.engineFailure ?? ""))
        #expect(model.progress.isFinished)

        await model.processAllPhotos()
        #expect(processor.calls == 4, "only the engine failure is tried again")
        #expect(model.progress.isFinished)
    }

    @Test func theBatchRunsNoMoreJobsAtOnceThanAllowed() async {
        let processor = FakePhotoProcessor()
        let model = StickerViewModel(processor: processor, maxConcurrentJobs: 3)
        model.select((0..<12).map { photo("p\($0)", "photo \($0)") })

        await model.processAllPhotos()

        #expect(processor.maxConcurrentCalls <= 3)
        #expect(processor.calls == 12)
    }

    @Test func cancellingStopsTheBatchPromptlyAndLeavesConsistentState() async throws {
        let processor = FakePhotoProcessor(gateOpen: false)
        let model = StickerViewModel(processor: processor, maxConcurrentJobs: 2)
        model.select((0..<8).map { photo("p\($0)", "photo \($0)") })

        let batch = Task { await model.processAllPhotos() }
        while processor.calls < 2 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(model.isProcessing)
        model.cancel()
        await batch.value

        #expect(!model.isProcessing)
        #expect(processor.calls == 2, "no new photo is started after cancel()")
        #expect(model.processedPhotos.isEmpty)
        #expect(model.progress == .init(completed: 0, total: 8))

        // The model is usable again afterwards and finishes what was left.
        processor.openGate()
        await model.processAllPhotos()
        #expect(model.progress == .init(completed: 8, total: 8))
    }

    @Test func cancellingTheCallingTaskCancelsTheBatch() async throws {
        let processor = FakePhotoProcessor(gateOpen: false)
        let model = StickerViewModel(processor: processor, maxConcurrentJobs: 2)
        model.select((0..<4).map { photo("p\($0)", "photo \($0)") })

        let batch = Task { await model.processAllPhotos() }
        while processor.calls < 2 { try await Task.sleep(for: .milliseconds(1)) }
        batch.cancel()
        await batch.value

        #expect(!model.isProcessing)
        #expect(model.processedPhotos.isEmpty)
    }

    @Test func aPhotoSelectedTwiceIsProcessedOnce() async {
        let processor = FakePhotoProcessor()
        let model = StickerViewModel(processor: processor, maxConcurrentJobs: 2)
        model.select([photo("a", "same bytes"), photo("copy of a", "same bytes"), photo("b", "other")])

        await model.processAllPhotos()

        #expect(model.processedPhotos.count == 3)
        #expect(processor.calls == 2)
    }

    @Test func resultsOfPhotosThatStaySelectedAreKept() async {
        let model = StickerViewModel(processor: FakePhotoProcessor())
        let a = photo("a", "photo a"), b = photo("b", "photo b")
        model.select([a, b])
        await model.processAllPhotos()

        model.select([b])

        #expect(model.processedPhotos.keys.sorted { $0.uuidString < $1.uuidString } == [b.id])
        #expect(model.progress == .init(completed: 1, total: 1))
    }

    @Test("A photo's bytes are read when needed and not kept: a batch holds no photo's bytes")
    func photoBytesAreNotKept() async throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "load-\(UUID()).jpg")
        try Data("first".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let model = StickerViewModel(processor: FakePhotoProcessor())
        let selected = SelectedPhoto(file: url)
        model.select([selected])

        let first = await model.loadPhoto(selected)
        try Data("changed".utf8).write(to: url)
        let second = await model.loadPhoto(selected)

        #expect(first == Data("first".utf8))
        #expect(second == Data("changed".utf8))
    }

    @Test("Finished photos are kept as PNG files (the one StickerKit path) and the pack is assembled from them")
    func finishedPhotosAreFiles() async throws {
        let model = StickerViewModel(processor: FakePhotoProcessor())
        let photos = [photo("a", "photo a"), photo("b", "photo b")]
        model.select(photos)
        await model.processAllPhotos()
        let files = try #require(model.processedPhotos[photos[0].id])
        let expected = try await StickerPNGs.render(FakePhotoProcessor.photo(for: Data("photo a".utf8)))
        #expect(try Data(contentsOf: files.sticker) == expected.sticker)
        #expect(try Data(contentsOf: files.gradient) == expected.gradient)

        let pack = FileManager.default.temporaryDirectory.appending(path: "pack-\(UUID()).zip")
        defer { try? FileManager.default.removeItem(at: pack) }
        try await model.exportPack(to: pack)
        let zip = try Data(contentsOf: pack)
        #expect(zip.range(of: expected.sticker) != nil, "the sticker file's bytes are stored as they are")
    }

    @Test("A second model over the same disk cache reports its photos as coming from the cache")
    func fromCacheIsReported() async throws {
        let disk = ProcessedPhotoCacheTests.diskCache()
        defer { try? FileManager.default.removeItem(at: disk.folder) }
        let photos = [photo("a", "photo a"), photo("b", "photo b")]
        let first = StickerViewModel(cache: ProcessedPhotoCache(processor: FakePhotoProcessor(), disk: disk))
        first.select(photos)
        await first.processAllPhotos()
        #expect(first.fromCache.isEmpty)

        let processor = FakePhotoProcessor()
        let second = StickerViewModel(cache: ProcessedPhotoCache(processor: processor, disk: disk))
        second.select(photos + [photo("c", "photo c")])
        await second.processAllPhotos()
        #expect(second.fromCache == Set(photos.map(\.id)))
        #expect(processor.calls == 1)
    }

    @Test("When a result cannot be stored the batch stops and keeps the cause")
    func storageFailureStopsTheBatch() async throws {
        let blocker = FileManager.default.temporaryDirectory.appending(path: "stickers-not-a-folder-\(UUID())")
        try Data("a file".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let processor = FakePhotoProcessor()
        let model = StickerViewModel(cache: ProcessedPhotoCache(processor: processor, disk: ProcessedPhotoDiskCache(folder: blocker.appending(path: "p"))),
                                     maxConcurrentJobs: 1)
        model.select((0..<6).map { photo("p\($0)", "photo \($0)") })
        await model.processAllPhotos()
        #expect(model.storageFailure != nil)
        #expect(processor.calls < 6)
        #expect(model.processedPhotos.isEmpty)
    }
}
