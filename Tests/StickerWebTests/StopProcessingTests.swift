import Foundation
import StickerApp
import StickerKit
import StickerLibrary
import Testing
@testable import StickerWeb

/// The sticker batch when the server stops (`WebServer` calls `stopProcessing()` on SIGINT/SIGTERM).
@MainActor @Suite struct StopProcessingTests {
    /// Holds a photo whose bytes contain "hold" until cancelled; makes any other at once.
    struct HoldingProcessor: PhotoProcessing {
        let fake = FakePhotoProcessor()
        func process(data: Data) async throws -> ProcessedPhoto {
            if data.range(of: Data("hold".utf8)) != nil { try await Task.sleep(for: .seconds(3600)) }
            return try await fake.process(data: data)
        }
    }

    @Test("Stopping cancels the batch at a photo boundary, records the photos it finished, and starts no new batch")
    func stopKeepsFinishedPhotos() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stickers-web-stop-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try StickerLibrary(folder: folder.appending(path: "data"))
        let cache = ProcessedPhotoCache(processor: HoldingProcessor(),
                                        disk: ProcessedPhotoDiskCache(folder: folder.appending(path: "cache")))
        let session = StickerSession(model: StickerViewModel(cache: cache, maxConcurrentJobs: 2),
                                     library: nil, limits: WebLimits(), store: store)
        let made = try samplePNG(), held = try samplePNG() + Data("hold".utf8)
        try await session.add([.init(name: "made", data: made), .init(name: "held", data: held)])
        session.startProcessing()
        while session.snapshot().photos.first(where: { $0.name == "made" })?.status != "processed" {
            try await Task.sleep(for: .milliseconds(5))
        }

        await session.stopProcessing()
        #expect(!session.isProcessing)
        let results = try await store.results(identity: cache.identity)
        #expect(results[ContentDigest(made).hex]?.outcome == .processed, "the finished photo is recorded")
        #expect(results[ContentDigest(held).hex] == nil, "the photo being made is dropped, not recorded")
        #expect(session.snapshot().photos.map(\.status) == ["processed", "pending"])

        session.startProcessing()
        #expect(!session.isProcessing, "no batch starts once the server is stopping")
    }
}
