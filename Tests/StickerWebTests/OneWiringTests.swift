import Foundation
import Hummingbird
import HummingbirdTesting
import SpacePhotos
import StickerApp
import StickerLibrary
import Testing
@testable import StickerWeb

/// The web tests build the app with `buildApplication`, as `serve` does: what the library holds
/// is restored for every tab, the Space tab's favourites included (the old test wiring skipped them).
@Suite struct OneWiringTests {
    struct Space: Decodable {
        struct Item: Decodable { var id: String; var title: String }
        var favorites: [Item]
    }

    @Test("The Space tab's favourites kept in the library are there when the app is built, as after a restart of serve")
    func spaceFavouritesAreRestored() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stickers-one-wiring-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try StickerLibrary(folder: folder)
        let photo = SpacePhoto(title: "Pillars", description: "About pillars.", date: Date(timeIntervalSince1970: 19_000 * 86_400),
                               url: URL(string: "https://example.org/pillars.jpg")!)
        try await LibraryCatalogStore(library: store).setFavorites([photo])

        try await withWebApp(store: store) { client in
            let space: Space = try await client.execute(uri: "/api/space", method: .get).decoded()
            #expect(space.favorites.map(\.title) == ["Pillars"])
        }
    }
}
