import Foundation
import SpacePhotos
import StickerApp
import StickerLibrary
import Testing

/// The Space tab's favourites and the photos seen before outlive the process: they are kept in
/// the library database.
@Suite struct LibraryCatalogStoreTests {
    private func photo(_ day: Int, _ title: String) -> SpacePhoto {
        SpacePhoto(title: title, description: "About \(title).", date: Date(timeIntervalSince1970: Double(day) * 86_400),
                   url: URL(string: "https://example.org/\(day).jpg")!, mediaType: day % 2 == 0 ? .image : .video,
                   thumbnailURL: day % 2 == 0 ? nil : URL(string: "https://example.org/\(day)-thumb.jpg"))
    }

    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("Favourites come back in their order from a new library on the same folder")
    func favouritesSurviveARestart() async throws {
        let data = try folder()
        defer { try? FileManager.default.removeItem(at: data) }
        let favourites = [photo(19_800, "Pillars"), photo(19_801, "Launch"), photo(19_700, "Moon")]
        try await LibraryCatalogStore(library: try StickerLibrary(folder: data)).setFavorites(favourites)
        let reopened = LibraryCatalogStore(library: try StickerLibrary(folder: data))
        #expect(try await reopened.favorites() == favourites)
        try await reopened.setFavorites([favourites[1]])
        #expect(try await LibraryCatalogStore(library: try StickerLibrary(folder: data)).favorites() == [favourites[1]])
    }

    @Test("Photos seen before are remembered by day, newest first, the newer copy of a day winning")
    func seenPhotosAreRememberedByDay() async throws {
        let data = try folder()
        defer { try? FileManager.default.removeItem(at: data) }
        let store = LibraryCatalogStore(library: try StickerLibrary(folder: data))
        try await store.rememberSeen([photo(19_800, "Old title"), photo(19_801, "Launch")])
        try await store.rememberSeen([photo(19_800, "Pillars"), photo(19_799, "Nebula")])
        let reopened = LibraryCatalogStore(library: try StickerLibrary(folder: data))
        #expect(try await reopened.seenPhotos(days: nil).map(\.title) == ["Launch", "Pillars", "Nebula"])
        #expect(try await reopened.seenPhotos(days: [photo(19_799, "").day]).map(\.title) == ["Nebula"])
    }
}
