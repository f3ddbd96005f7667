import APODTestServer
import Foundation
import SpacePhotos
import Testing
@testable import StickerApp

private func model(_ server: FakeAPODServer, store: (any CatalogStore)? = nil) -> CatalogModel {
    let client = APODClient(configuration: APODConfiguration(
        baseURL: server.apiURL, apiKey: "test-key", environment: [:],
        connectTimeout: .seconds(120), requestTimeout: .seconds(120),
        retry: RetryPolicy(maxAttempts: 1, sleep: { _ in try Task.checkCancellation() }), log: { _ in }))
    return CatalogModel(client: client, libraryFolder: FileManager.default.temporaryDirectory, store: store)
}

private func day(_ text: String) throws -> Date { try #require(APODDay.date(from: text)) }

@Suite struct CatalogRangeAndFavoritesTests {
    @Test("a range with a failing day lists the other days and names the failing one")
    func rangeWithAFailingDay() async throws {
        try await FakeAPODServer.withRunning { server in
            await server.state.setFailingDays(["2024-01-02"])
            let catalog = model(server)
            catalog.selection = .range(start: try day("2024-01-01"), end: try day("2024-01-04"))
            await catalog.refresh()
            #expect(catalog.error == nil)
            #expect(catalog.items.map(\.day) == ["2024-01-01", "2024-01-03", "2024-01-04"])
            #expect(catalog.failedDays.map(\.day) == ["2024-01-02"])
        }
    }

    @Test("a chosen day lists that day's photo")
    func chosenDay() async throws {
        try await FakeAPODServer.withRunning { server in
            let catalog = model(server)
            catalog.selection = .days([try day("2001-09-09")])
            await catalog.refresh()
            #expect(catalog.items.map(\.day) == ["2001-09-09"])
        }
    }

    @Test("favourites toggle, persist through the store and come back in a new model")
    func favoritesPersist() async throws {
        try await FakeAPODServer.withRunning { server in
            let store = InMemoryCatalogStore()
            let catalog = model(server, store: store)
            catalog.selection = .range(start: try day("2024-01-01"), end: try day("2024-01-03"))
            await catalog.refresh()
            try #require(catalog.items.count == 3)
            await catalog.toggleFavorite(catalog.items[0])
            await catalog.toggleFavorite(catalog.items[2])
            #expect(catalog.favorites.map(\.day) == ["2024-01-03", "2024-01-01"])
            await catalog.toggleFavorite(catalog.items[0])
            #expect(catalog.favorites.map(\.day) == ["2024-01-03"])
            #expect(catalog.isFavorite("2024-01-03"))

            let later = model(server, store: store)
            await later.loadFavorites()
            #expect(later.favorites.map(\.day) == ["2024-01-03"])
        }
    }

    @Test("when the API cannot be reached, the photos seen before are listed with the error")
    func seenBeforeWhenOffline() async throws {
        let store = InMemoryCatalogStore()
        try await FakeAPODServer.withRunning { server in
            let catalog = model(server, store: store)
            catalog.selection = .range(start: try day("2024-01-01"), end: try day("2024-01-03"))
            await catalog.refresh()
            #expect(!catalog.isShowingSeenBefore)
            await server.state.setAPIDefault(.status(503))
            let offline = model(server, store: store)
            offline.selection = .range(start: try day("2024-01-02"), end: try day("2024-01-05"))
            await offline.refresh()
            #expect(offline.error == .server(status: 503))
            #expect(offline.isShowingSeenBefore)
            #expect(offline.items.map(\.day) == ["2024-01-03", "2024-01-02"])
        }
    }
}
