import APODTestServer
import Foundation
import HummingbirdTesting
import Testing

/// The colours tab's swatch details and moods; the space tab's days, ranges and favourites.
@Suite struct PaletteMoodAndRangeRoutesTests {
    struct Swatches: Decodable {
        struct Swatch: Decodable {
            struct Contrast: Decodable { var white: Double; var black: Double }
            var hex: String
            var name: String
            var textColor: String
            var contrast: Contrast
        }
        var mood: String?
        var moods: [String]
        var colors: [Swatch]?
    }

    @Test("swatches carry a name, a readable text colour and contrast; a mood is applied or refused")
    func swatchesAndMoods() async throws {
        try await withWebApp { client in
            try await client.chooseColorPhoto(try fourColorPNG(), name: "quads")
            let response = try await client.execute(uri: "/api/colors/extract?count=3&mood=dark", method: .post)
            #expect(response.status == .ok)
            let state: Swatches = try response.decoded()
            #expect(state.mood == "dark")
            #expect(state.moods == ["colorful", "bright", "muted", "deep", "dark"])
            let colors = try #require(state.colors)
            #expect(!colors.isEmpty)
            for swatch in colors {
                #expect(!swatch.name.isEmpty)
                #expect(["#000000", "#FFFFFF"].contains(swatch.textColor))
                #expect(swatch.contrast.white >= 1 && swatch.contrast.black >= 1)
            }
            let unknown = try await client.execute(uri: "/api/colors/extract?count=3&mood=gloomy", method: .post)
            #expect(unknown.status == .badRequest)
            let aco = try await client.execute(uri: "/api/colors/export?format=aco", method: .get)
            #expect(aco.headers[.contentType] == "application/octet-stream")
        }
    }

    struct Space: Decodable {
        struct Item: Decodable { var date: String; var isFavorite: Bool; var videoURL: String? }
        struct Failed: Decodable { var date: String }
        var items: [Item]
        var failedDays: [Failed]
        var favorites: [Item]
        var firstDay: String
    }

    @Test("a range lists its days and names the failing one; favourites toggle")
    func rangeAndFavorites() async throws {
        try await withSpaceApp { client, server, _ in
            await server.state.setFailingDays(["2024-01-02"])
            let response = try await client.execute(uri: "/api/space/refresh?start=2024-01-01&end=2024-01-04", method: .post)
            #expect(response.status == .ok)
            let state: Space = try response.decoded()
            #expect(state.items.map(\.date) == ["2024-01-01", "2024-01-03", "2024-01-04"])
            #expect(state.failedDays.map(\.date) == ["2024-01-02"])
            #expect(state.firstDay == "1995-06-16")
            #expect(state.items.contains { $0.videoURL != nil })

            let favorite: Space = try await client.execute(uri: "/api/space/photos/2024-01-03/favorite", method: .post).decoded()
            #expect(favorite.favorites.map(\.date) == ["2024-01-03"])
            #expect(favorite.items.first { $0.date == "2024-01-03" }?.isFavorite == true)

            let day: Space = try await client.execute(uri: "/api/space/refresh?date=2001-09-09", method: .post).decoded()
            #expect(day.items.map(\.date) == ["2001-09-09"])
            let early = try await client.execute(uri: "/api/space/refresh?date=1990-01-01", method: .post)
            #expect(early.status == .badRequest)
            #expect(early.errorMessage?.contains("1995-06-16") == true)
        }
    }
}
