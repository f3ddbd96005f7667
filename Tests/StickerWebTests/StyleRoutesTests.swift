import Foundation
import Hummingbird
import HummingbirdTesting
import Raster
import Testing
import StickerWeb

@MainActor
struct StyleRoutesTests {
    private func putStyle(_ client: some TestClientProtocol, _ id: UUID, _ json: String) async throws -> TestResponse {
        try await client.execute(uri: "/api/stickers/photos/\(id)/style", method: .put,
                                 headers: [.contentType: "application/json"], body: ByteBuffer(string: json))
    }

    @Test("a processed sticker is restyled, and its style is kept and shown with the photo")
    func restylingAProcessedSticker() async throws {
        try await withWebApp { client in
            try await client.upload(try samplePNG(), name: "good")
            let id = try #require(try await client.processAll().final.photos.first?.id)
            let response = try await putStyle(client, id, ##"{"outline": 4, "outlineColor": "#ff3366", "effect": "comic"}"##)
            #expect(response.status == .ok)
            let photos = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])["photos"]
            let style = try #require(((photos as? [[String: Any]])?.first)?["style"] as? [String: Any])
            #expect(style["outline"] as? Int == 4 && style["outlineColor"] as? String == "#FF3366")
            #expect(style["effect"] as? String == "comic" && style["shadow"] as? Bool == false)
            // The 3×2 sticker now has a 4 px outline and the 2 px padding on every side.
            let png = try await client.execute(uri: "/api/stickers/photos/\(id)/sticker.png", method: .get)
            let image = try ImageDecoder.decode(Data(buffer: png.body))
            #expect(image.width == 3 + 2 * 6 && image.height == 2 + 2 * 6)
            #expect(image[3, 7] == RGBA8(r: 255, g: 51, b: 102))
        }
    }

    @Test("bad styles are refused with the reason: colour, width, JSON, unprocessed photo")
    func badStylesAreRefused() async throws {
        try await withWebApp { client in
            let pending = try #require(try await client.upload(try samplePNG(), name: "p").decoded(Snapshot.self).photos.first?.id)
            let notYet = try await putStyle(client, pending, #"{"effect": "puffy"}"#)
            #expect(notYet.status == .conflict && notYet.errorMessage == "p is not processed yet")
            let id = try #require(try await client.processAll().final.photos.first?.id)
            let colour = try await putStyle(client, id, ##"{"outlineColor": "#12345"}"##)
            #expect(colour.status == .unprocessableContent)
            #expect(colour.errorMessage?.contains("hex") == true)
            let width = try await putStyle(client, id, #"{"outline": 101}"#)
            #expect(width.status == .unprocessableContent)
            #expect(width.errorMessage?.contains("between 0 and 100") == true)
            let effect = try await putStyle(client, id, #"{"effect": "shiny"}"#)
            #expect(effect.status == .badRequest)
            let unknown = try await putStyle(client, UUID(), #"{}"#)
            #expect(unknown.status == .notFound)
        }
    }
}
