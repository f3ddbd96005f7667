import Foundation
import Hummingbird
import HummingbirdTesting
import StickerApp
import StickerKit
import Testing
import TestSupport
@testable import StickerWeb

/// Clips through the web API: uploaded like photos, processed by the batch, shown as an animated
/// WebP, restyled, and packed for Telegram as WebM video stickers. The cut-out is the stand-in
/// network (`BorderContrastSaliency`); decoding and WebM encoding are the real ffmpeg.
@Suite struct ClipRoutesTests {
    static func clipStickers(_ folder: URL) -> ClipStickers {
        ClipStickers(maker: ClipStickerMaker(predictor: BorderContrastSaliency()),
                     cache: .inside(cacheDirectory: folder.appending(path: "cache")), scratch: folder)
    }

    @Test("An uploaded clip is processed into an animated WebP that the card shows, restyled, and packed for Telegram as WebM")
    func clipThroughTheAPI() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stickers-clip-routes-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Data(contentsOf: try await ClipTools.movingDisc(in: folder))
        try await withWebApp(limits: WebLimits(maxUploadBytes: 4 << 20, maxPhotos: 5), clipStickers: Self.clipStickers(folder)) { client in
            let uploaded = try await client.upload(clip, name: "disc.mp4", contentType: "video/mp4")
            #expect(uploaded.status == .created, "\(uploaded.errorMessage ?? "")")
            let (_, final) = try await client.processAll()
            let photo = try #require(final.photos.first)
            #expect(photo.status == "processed", "\(photo.reason ?? "")")

            // The snapshot says it is animated; sticker.webp is the animation, sticker.png its first frame.
            let raw = try await client.execute(uri: "/api/stickers", method: .get)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: raw.body)) as? [String: Any])
            let photos = try #require(json["photos"] as? [[String: Any]])
            #expect(photos.first?["animated"] as? Bool == true)
            let webp = try await client.execute(uri: "/api/stickers/photos/\(photo.id)/sticker.webp", method: .get)
            #expect(webp.status == .ok && webp.headers[.contentType] == "image/webp")
            #expect(ClipDetection.isAnimatedWebP(Data(buffer: webp.body)))
            let png = try await client.execute(uri: "/api/stickers/photos/\(photo.id)/sticker.png", method: .get)
            #expect(png.status == .ok && Data(buffer: png.body).starts(with: [0x89, 0x50, 0x4E, 0x47]))

            let restyled = try await client.execute(uri: "/api/stickers/photos/\(photo.id)/style", method: .put,
                                                    headers: [.contentType: "application/json"],
                                                    body: ByteBuffer(string: #"{"outline": 14, "shadow": true}"#))
            #expect(restyled.status == .ok, "\(restyled.errorMessage ?? "")")
            let again = try await client.execute(uri: "/api/stickers/photos/\(photo.id)/sticker.webp", method: .get)
            #expect(Data(buffer: again.body) != Data(buffer: webp.body), "the restyled animation differs")

            let pack = try await client.execute(uri: "/api/stickers/pack/telegram/animated", method: .get)
            #expect(pack.status == .ok, "\(pack.errorMessage ?? "")")
            let zip = folder.appending(path: "pack.zip")
            try Data(buffer: pack.body).write(to: zip)
            #expect(try await ClipTools.runToEnd(["unzip", "-l", zip.path]).output.contains("disc.webm"))
            // The still pack has no stills to hold.
            let still = try await client.execute(uri: "/api/stickers/pack/telegram", method: .get)
            #expect(still.status == .conflict, "\(still.status)")
        }
    }

    @Test("A clip on a server without clip support is the engine's failure, saying so")
    func clipWithoutSupport() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "stickers-clip-routes-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let clip = try Data(contentsOf: try await ClipTools.movingDisc(in: folder))
        try await withWebApp(limits: WebLimits(maxUploadBytes: 4 << 20, maxPhotos: 5)) { client in
            let (body, _) = (ByteBuffer(bytes: clip), 0)
            let uploaded = try await client.execute(uri: "/api/stickers/photos?name=disc.mp4", method: .post,
                                                    headers: [.contentType: "application/octet-stream"], body: body)
            #expect(uploaded.status == .created)
            let (_, final) = try await client.processAll()
            #expect(final.photos.first?.status == "failed")
            #expect(final.photos.first?.reason?.contains("clips") == true)
        }
    }
}
