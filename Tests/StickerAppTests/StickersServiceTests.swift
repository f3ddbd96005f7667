import Foundation
import Raster
import StickerKit
import StickerLibrary
import Testing
@testable import StickerApp

/// The Stickers tab's service driven without HTTP, as any front (the web app, a SwiftUI view) would.
@Suite struct StickersServiceTests {
    /// Holds a photo whose bytes contain "hold" until cancelled; makes any other at once.
    struct HoldingProcessor: PhotoProcessing {
        let fake = FakePhotoProcessor()
        func process(data: Data) async throws -> ProcessedPhoto {
            if data.range(of: Data("hold".utf8)) != nil { try await Task.sleep(for: .seconds(3600)) }
            return try await fake.process(data: data)
        }
    }

    private static func folder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "stickers-service-\(UUID())")
    }

    private static func statuses(_ service: StickersService) -> [String: StickerViewModel.PhotoState] {
        Dictionary(uniqueKeysWithValues: service.overview.photos.map { ($0.photo.name, $0.state) })
    }

    @Test("Stopping cancels the batch at a photo boundary, records the photos it finished, and starts no new batch")
    func stopKeepsFinishedPhotos() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try StickerLibrary(folder: folder.appending(path: "data"))
        let cache = ProcessedPhotoCache(processor: HoldingProcessor(),
                                        disk: ProcessedPhotoDiskCache(folder: folder.appending(path: "cache")))
        let service = StickersService(model: StickerViewModel(cache: cache, maxConcurrentJobs: 2), maxPhotos: 10, store: store)
        let made = Data("made".utf8), held = Data("hold".utf8)
        try await service.add([.init(name: "made", data: made), .init(name: "held", data: held)])
        service.startProcessing()
        while Self.statuses(service)["made"]?.files == nil {
            try await Task.sleep(for: .milliseconds(5))
        }

        await service.stopProcessing()
        #expect(!service.isProcessing)
        let results = try await store.results(identity: cache.identity)
        #expect(results[ContentDigest(made).hex]?.outcome == .processed, "the finished photo is recorded")
        #expect(results[ContentDigest(held).hex] == nil, "the photo being made is dropped, not recorded")
        #expect(Self.statuses(service)["held"] == .waiting, "the photo being made waits again")

        service.startProcessing()
        #expect(!service.isProcessing, "no batch starts once the app is stopping")
    }

    @Test("An upload is stored once: the same photo uploaded again is the photo already there")
    func uploadsAreDeduplicated() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try StickerLibrary(folder: folder)
        let service = StickersService(model: StickerViewModel(processor: FakePhotoProcessor()), maxPhotos: 10, store: store)
        try await service.add([.init(name: "a", data: Data("one".utf8)), .init(name: "a again", data: Data("one".utf8))])
        try await service.add([.init(name: "b", data: Data("two".utf8)), .init(name: "a later", data: Data("one".utf8))])
        #expect(service.overview.photos.map(\.photo.name) == ["a", "b"])
        #expect(try await store.photos().count == 2)
    }

    @Test("More photos than the tab holds are refused whole, with the limit in words")
    func tooManyPhotos() async throws {
        let service = StickersService(model: StickerViewModel(processor: FakePhotoProcessor()), maxPhotos: 2)
        await #expect(throws: ServiceError.unusable("at most 2 photos at once; 0 are already chosen")) {
            try await service.add((1...3).map { .init(name: "p\($0)", data: Data("p\($0)".utf8)) })
        }
        #expect(service.overview.photos.isEmpty)
    }

    @Test("Each photo's state carries its outcome: done with its files, invalid with its problem, engine failure with its reason")
    func statesCarryTheirReasons() async throws {
        let service = StickersService(model: StickerViewModel(processor: FakePhotoProcessor()), maxPhotos: 10)
        try await service.add([.init(name: "good", data: Data("good".utf8)), .init(name: "bad", data: Data("bad".utf8)),
                               .init(name: "engine", data: Data("engine".utf8))])
        service.startProcessing()
        var last: StickersService.Overview?
        for await overview in service.updates() { last = overview }
        let overview = try #require(last)
        #expect(!overview.isProcessing)
        #expect(overview.progress == .init(completed: 3, total: 3))
        let states = Self.statuses(service)
        #expect(states["good"]?.files != nil)
        #expect(states["bad"]?.problem?.reason == PhotoProcessingError.unreadable(.unsupportedFormat).description)
        #expect(states["engine"] == .engineFailed(reason: "the cut-out model failed: the network returned no saliency map"))
        #expect(overview.engineFailure == "the cut-out model failed: the network returned no saliency map")
    }

    @Test("A photo that is not processed cannot be restyled, and the answer says why")
    func restyleNeedsAProcessedPhoto() async throws {
        let service = StickersService(model: StickerViewModel(processor: FakePhotoProcessor()), maxPhotos: 10)
        try await service.add([.init(name: "later", data: Data("later".utf8))])
        let id = try #require(service.overview.photos.first?.photo.id)
        await #expect(throws: ServiceError.notReady("later is not processed yet")) {
            try await service.restyle(id, with: StickerStyle(outlineWidth: 4))
        }
        await #expect(throws: ServiceError.notFound("no photo with id \(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!.uuidString)")) {
            try await service.png(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!, .sticker)
        }
    }
}
