import Foundation
import Testing
@testable import StickerApp
import StickerKit

@Suite struct ProcessedPhotoCacheTests {
    @Test func twentyConcurrentRequestsForOnePhotoProcessItOnce() async throws {
        let processor = FakePhotoProcessor()
        let cache = ProcessedPhotoCache(processor: processor)
        let data = Data("one photo".utf8)

        let results = try await withThrowingTaskGroup(of: ProcessedPhoto.self) { group in
            for _ in 0..<20 { group.addTask { try await cache.processedPhoto(for: data) } }
            var all: [ProcessedPhoto] = []
            for try await result in group { all.append(result) }
            return all
        }

        #expect(results.count == 20)
        #expect(Set(results).count == 1)
        #expect(processor.calls == 1)
    }

    @Test func aRememberedPhotoIsNotProcessedAgain() async throws {
        let processor = FakePhotoProcessor()
        let cache = ProcessedPhotoCache(processor: processor)
        _ = try await cache.processedPhoto(for: Data("a".utf8))
        _ = try await cache.processedPhoto(for: Data("a".utf8))
        _ = try await cache.processedPhoto(for: Data("b".utf8))
        #expect(processor.calls == 2)
        #expect(await cache.count == 2)
    }

    @Test func anUnreadablePhotoIsRememberedAsUnreadable() async {
        let processor = FakePhotoProcessor()
        let cache = ProcessedPhotoCache(processor: processor)
        for _ in 0..<3 {
            await #expect(throws: PhotoProcessingError.unreadable(.unsupportedFormat)) {
                try await cache.processedPhoto(for: Data("bad bytes".utf8))
            }
        }
        #expect(processor.calls == 1)
    }

    @Test("An engine failure is not the photo's: it is not remembered, the next request tries again")
    func anEngineFailureIsNotRemembered() async {
        let processor = FakePhotoProcessor()
        let cache = ProcessedPhotoCache(processor: processor)
        for _ in 0..<2 {
            await #expect(throws: PhotoProcessingError.self) {
                try await cache.processedPhoto(for: Data("engine fails".utf8))
            }
        }
        #expect(processor.calls == 2)
    }

    @Test func whenEveryWaiterIsCancelledTheWorkIsCancelledAndNotRemembered() async throws {
        let processor = FakePhotoProcessor(gateOpen: false)
        let cache = ProcessedPhotoCache(processor: processor)
        let data = Data("slow photo".utf8)

        let waiter = Task { try await cache.processedPhoto(for: data) }
        while processor.calls < 1 { try await Task.sleep(for: .milliseconds(1)) }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }

        processor.openGate()
        _ = try await cache.processedPhoto(for: data)
        #expect(processor.calls == 2, "a cancelled computation is not reused")
    }

    @Test func oneCancelledWaiterDoesNotSpoilTheResultForTheOthers() async throws {
        let processor = FakePhotoProcessor(gateOpen: false)
        let cache = ProcessedPhotoCache(processor: processor)
        let data = Data("shared photo".utf8)

        let impatient = Task { try await cache.processedPhoto(for: data) }
        let patient = Task { try await cache.processedPhoto(for: data) }
        while processor.calls < 1 { try await Task.sleep(for: .milliseconds(1)) }
        try await Task.sleep(for: .milliseconds(20))
        impatient.cancel()
        try await Task.sleep(for: .milliseconds(20))
        processor.openGate()

        let photo = try await patient.value
        #expect(photo == FakePhotoProcessor.photo(for: data))
        #expect(processor.calls == 1)
    }
}
