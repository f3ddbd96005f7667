import Foundation
import Raster
import Testing
@testable import StickerKit

@Suite struct PhotoProcessorTests {
    let red = RGBA8(r: 220, g: 40, b: 40)
    let green = RGBA8(r: 60, g: 150, b: 70)

    func discPhoto() throws -> Data {
        let scene = SubjectScenes.disc(width: 160, height: 120, centerX: 80, centerY: 60, radius: 30,
                                       color: red, background: green)
        return try ImageEncoder.png(scene.image)
    }

    func processor(concurrent: Bool = true, predictor: any SaliencyPredicting = ContrastSaliency()) -> PhotoProcessor {
        var processor = PhotoProcessor(subjectExtractor: SubjectExtractor(predictor: predictor), colorCount: 5)
        processor.runsStagesConcurrently = concurrent
        return processor
    }

    @Test func aPhotoBecomesAStickerWithAFullSizeMaskAndItsSubjectsColours() async throws {
        let photo = try await processor().process(data: try discPhoto())

        #expect(photo.sticker.mask.width == 160 && photo.sticker.mask.height == 120)
        #expect(photo.sticker.mask[80, 60] == 255 && photo.sticker.mask[2, 2] == 0)
        let heaviest = try #require(photo.colorScheme.colors.first)
        #expect(heaviest.red > 180 && heaviest.green < 90, "the subject's red, not the green background, leads: \(heaviest.hex)")
        #expect(abs(photo.colorScheme.colors.map(\.weight).reduce(0, +) - 1) < 1e-6)
    }

    @Test func theConcurrentAndSequentialPipelinesMakeTheSameSticker() async throws {
        let data = try discPhoto()
        let concurrent = try await processor(concurrent: true).process(data: data)
        let sequential = try await processor(concurrent: false).process(data: data)

        #expect(concurrent.sticker == sequential.sticker)
        #expect(concurrent.colorScheme.colors.first?.hex == sequential.colorScheme.colors.first?.hex)
    }

    @Test func processingIsDeterministic() async throws {
        let data = try discPhoto()
        let first = try await processor().process(data: data)
        let second = try await processor().process(data: data)
        #expect(first == second)
    }

    @Test func bytesThatAreNotAnImageAreReportedUnreadable() async {
        await #expect(throws: PhotoProcessingError.unreadable(.unsupportedFormat)) {
            try await processor().process(data: Data("definitely not a photo".utf8))
        }
    }

    @Test func aPhotoWithoutASubjectIsReportedAsSuch() async throws {
        let flat = try ImageEncoder.png(Image(width: 64, height: 48, fill: green))
        let nothing = FixedSaliency(plane: Plane(width: 32, height: 32, fill: 0.01))
        await #expect(throws: PhotoProcessingError.noClearSubject) {
            try await processor(predictor: nothing).process(data: flat)
        }
    }

    @Test func aCancelledCallStopsWithCancellationError() async throws {
        let data = try discPhoto()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await processor().process(data: data)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}
