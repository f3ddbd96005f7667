import Foundation
import SpacePhotos
import StickerKit
import Testing
@testable import StickerApp

/// The Colours and Space tabs' services driven without HTTP: their refusals are typed
/// `ServiceError`s with the message a person reads.
@Suite struct TabServicesTests {
    @Test("The Colours service refuses an unknown mood, a count out of range and a missing photo, each as its kind")
    func colorsRefusals() async throws {
        let service = ColorsService(model: ColorSchemeModel())
        await #expect(throws: ServiceError.invalidRequest("unknown mood sleepy: use one of \(PaletteMood.allCases.map(\.rawValue).joined(separator: ", "))")) {
            try await service.extract(count: 5, mood: "sleepy")
        }
        let range = ColorSchemeModel.colorCountRange
        await #expect(throws: ServiceError.invalidRequest("count must be \(range.lowerBound)…\(range.upperBound), not 99")) {
            try await service.extract(count: 99)
        }
        await #expect(throws: ServiceError.notReady("choose a photo first")) { try await service.extract(count: 5) }
        #expect(throws: ServiceError.notFound("no photo chosen yet")) { try service.chosenPhotoData() }
        let id = UUID()
        await #expect(throws: ServiceError.notFound("no photo with id \(id.uuidString)")) { try await service.choose(stickerPhoto: id) }
    }

    @Test("The Colours service takes a photo of the Stickers tab by its id")
    func colorsTakeAStickerPhoto() async throws {
        let stickers = StickersService(model: StickerViewModel(processor: FakePhotoProcessor()), maxPhotos: 5)
        try await stickers.add([.init(name: "cat", data: Data("cat".utf8))])
        let id = try #require(stickers.overview.photos.first?.photo.id)
        let colors = ColorsService(model: ColorSchemeModel(), stickers: stickers)
        try await colors.choose(stickerPhoto: id)
        #expect(try colors.chosenPhotoData() == Data("cat".utf8))
        #expect(colors.model.photo?.name == "cat")
    }

    @Test("The Space service's days lie between APOD's first day and today, else a refusal naming the range")
    func spaceDays() throws {
        #expect(try SpaceService.day("1995-06-16", "date") == APODDay.firstDay)
        #expect(throws: ServiceError.self) { try SpaceService.day("1995-06-15", "date") }
        #expect(throws: ServiceError.self) { try SpaceService.day("2999-01-01", "date") }
        #expect(throws: ServiceError.self) { try SpaceService.day("yesterday", "start") }
    }
}
