import Foundation
import Hummingbird
import HummingbirdTesting
import StickerApp
import Testing
@testable import StickerWeb

/// The one mapping of the services' errors to HTTP, and the rules the page reads from the snapshot.
@Suite struct ServiceErrorMappingTests {
    @Test("Each kind of service error is one HTTP status, with its message unchanged",
          arguments: [(ServiceError.invalidRequest("m"), 400), (.notFound("m"), 404), (.notReady("m"), 409),
                      (.unusable("m"), 422), (.notKept("m"), 507), (.upstreamFailed("m"), 502)])
    func eachErrorIsOneStatus(error: ServiceError, code: Int) {
        let http = WebError(error).httpError
        #expect(http.status.code == code)
        #expect(http.body == "m")
    }

    struct Rules: Decodable {
        struct Platform: Decodable, Equatable {
            var platform: String
            var name: String
            var minStickers: Int
            var maxStickers: Int
        }
        var platforms: [Platform]
    }

    @Test("The snapshot carries each messaging app's sticker counts, so the page never restates them")
    func theSnapshotCarriesThePlatformRules() async throws {
        try await withWebApp { client in
            let rules: Rules = try await client.execute(uri: "/api/stickers", method: .get).decoded()
            #expect(rules.platforms == [
                .init(platform: "whatsapp", name: "WhatsApp", minStickers: 3, maxStickers: 30),
                .init(platform: "telegram", name: "Telegram", minStickers: 1, maxStickers: 120),
                .init(platform: "signal", name: "Signal", minStickers: 1, maxStickers: 200),
            ])
        }
    }
}
