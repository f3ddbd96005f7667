import Foundation
import Hummingbird
import HummingbirdTesting
import Raster
import Testing
import StickerWeb

/// The editor's routes: brush strokes and a caption kept with the photo, a click that picks a
/// subject, and every bad input refused with its reason.
@MainActor
struct EditorRoutesTests {
    /// A photo of the fake processor's 3×2 sticker's shape (its pixels are what restore paints).
    nonisolated static func photo() throws -> Data {
        try ImageEncoder.png(Image(width: 3, height: 2, fill: RGBA8(r: 10, g: 120, b: 200)))
    }

    nonisolated static func json(_ body: ByteBuffer) throws -> NSDictionary? {
        try JSONSerialization.jsonObject(with: Data(buffer: body)) as? NSDictionary
    }

    private func put(_ client: some TestClientProtocol, _ id: UUID, _ path: String, _ json: String) async throws -> TestResponse {
        try await client.execute(uri: "/api/stickers/photos/\(id)/\(path)", method: .put,
                                 headers: [.contentType: "application/json"], body: ByteBuffer(string: json))
    }

    private func sticker(_ client: some TestClientProtocol, _ id: UUID) async throws -> Image {
        try ImageDecoder.decode(Data(buffer: try await client.execute(uri: "/api/stickers/photos/\(id)/sticker.png", method: .get).body))
    }

    nonisolated private func photoJSON(_ response: TestResponse) throws -> [String: Any] {
        let photos = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])["photos"]
        return try #require((photos as? [[String: Any]])?.first)
    }

    @Test("strokes and a caption are applied to the sticker, read back, and shown with the photo")
    func strokesAndCaption() async throws {
        try await withWebApp { client in
            try await client.upload(try Self.photo(), name: "good")
            let id = try #require(try await client.processAll().final.photos.first?.id)
            // No strokes: the sticker drawn again from its kept cut-out, unedited.
            #expect(try await put(client, id, "edits", #"{"strokes":[]}"#).status == .ok)
            let before = try await sticker(client, id)
            let mask = try await client.execute(uri: "/api/stickers/photos/\(id)/mask.png", method: .get)
            #expect(mask.status == .ok && mask.headers[.contentType] == "image/png")
            let none = try await client.execute(uri: "/api/stickers/photos/\(id)/edits", method: .get)
            let noneJSON = try Self.json(none.body), emptyJSON = try Self.json(ByteBuffer(string: #"{"strokes":[]}"#))
            #expect(none.status == .ok && noneJSON == emptyJSON)

            // Erase the right column (painted at twice the size).
            let strokes = #"{"width":6,"height":4,"strokes":[{"mode":"erase","radius":1,"points":[[5,0],[5,3]]}]}"#
            let edited = try await put(client, id, "edits", strokes)
            #expect(edited.status == .ok)
            #expect(try photoJSON(edited)["strokeCount"] as? Int == 1)
            #expect(try await sticker(client, id).width < before.width)
            let read = try await client.execute(uri: "/api/stickers/photos/\(id)/edits", method: .get)
            let readJSON = try Self.json(read.body), sentJSON = try Self.json(ByteBuffer(string: strokes))
            #expect(readJSON == sentJSON)

            let captioned = try await put(client, id, "caption", ##"{"text":"Hi","position":"top","color":"#ffd23f"}"##)
            #expect(captioned.status == .ok)
            let caption = try #require(try photoJSON(captioned)["caption"] as? [String: Any])
            #expect(caption["text"] as? String == "Hi" && caption["position"] as? String == "top" && caption["color"] as? String == "#FFD23F")
            #expect(try await sticker(client, id).height > before.height)

            // Empty text and no strokes: the sticker as first made.
            #expect(try await put(client, id, "caption", #"{"text":"  "}"#).status == .ok)
            let cleared = try await put(client, id, "edits", #"{"strokes":[]}"#)
            let clearedPhoto = try photoJSON(cleared)
            #expect(clearedPhoto["strokeCount"] == nil && clearedPhoto["caption"] == nil)
            #expect(try await sticker(client, id) == before)
        }
    }

    @Test("a click on a subject chooses it; a malformed point is refused")
    func clickChoosesASubject() async throws {
        try await withWebApp { client in
            try await client.upload(try Self.photo(), name: "good")
            let id = try #require(try await client.processAll().final.photos.first?.id)
            let chosen = try await put(client, id, "subjects", #"{"point":[2,1]}"#)
            #expect(chosen.status == .ok)
            let subjects = try #require(try JSONSerialization.jsonObject(with: Data(buffer: chosen.body)) as? [String: Any])
            #expect(subjects["chosen"] as? [Int] == [2])
            #expect(try await put(client, id, "subjects", #"{"point":[2]}"#).status == .badRequest)
            #expect(try await put(client, id, "subjects", #"{"point":[2,1],"ranks":[1]}"#).status == .badRequest)
            let outside = try await put(client, id, "subjects", #"{"point":[30,1]}"#)
            #expect(outside.status == .unprocessableContent, "\(outside.errorMessage ?? "")")
        }
    }

    @Test("bad strokes and captions are refused with the reason; an unprocessed photo is not edited")
    func badInputIsRefused() async throws {
        try await withWebApp { client in
            let pending = try #require(try await client.upload(try Self.photo(), name: "p").decoded(Snapshot.self).photos.first?.id)
            let notYet = try await put(client, pending, "caption", #"{"text":"x"}"#)
            #expect(notYet.status == .conflict && notYet.errorMessage == "p is not processed yet")
            let id = try #require(try await client.processAll().final.photos.first?.id)
            let long = try await put(client, id, "caption", #"{"text":"\#(String(repeating: "a", count: 201))"}"#)
            #expect(long.status == .badRequest && long.errorMessage?.contains("at most 200") == true)
            let colour = try await put(client, id, "caption", #"{"text":"x","color":"red"}"#)
            #expect(colour.status == .badRequest && colour.errorMessage?.contains("hex") == true)
            let position = try await put(client, id, "caption", #"{"text":"x","position":"middle"}"#)
            #expect(position.status == .badRequest)
            let radius = try await put(client, id, "edits", #"{"width":3,"height":2,"strokes":[{"mode":"erase","radius":0,"points":[[1,1]]}]}"#)
            #expect(radius.status == .badRequest && radius.errorMessage?.contains("radius") == true)
            let sizeless = try await put(client, id, "edits", #"{"strokes":[{"mode":"erase","radius":1,"points":[[1,1]]}]}"#)
            #expect(sizeless.status == .badRequest)
            let shape = try await put(client, id, "edits", #"{"width":3,"height":3,"strokes":[{"mode":"erase","radius":1,"points":[[1,1]]}]}"#)
            #expect(shape.status == .unprocessableContent)
            let all = try await put(client, id, "edits", #"{"width":3,"height":2,"strokes":[{"mode":"erase","radius":9,"points":[[1,1]]}]}"#)
            #expect(all.status == .unprocessableContent && all.errorMessage?.contains("whole subject") == true)
            let point = #"[1,1],"#
            let huge = #"{"width":3,"height":2,"strokes":[{"mode":"erase","radius":1,"points":[\#(String(repeating: point, count: 14_000))[1,1]]}]}"#
            #expect(try await put(client, id, "edits", huge).status == .contentTooLarge)
            #expect(try await put(client, UUID(), "edits", #"{"strokes":[]}"#).status == .notFound)
        }
    }
}
