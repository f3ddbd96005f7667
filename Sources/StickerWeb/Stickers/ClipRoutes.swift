import Foundation
import Hummingbird
import StickerApp
import StickerKit

/// The Stickers tab's routes for clips (uploaded like photos, `POST /api/stickers/photos`):
///
///     GET /api/stickers/photos/:id/sticker.webp          a processed clip's animated sticker (animated WebP)
///     GET /api/stickers/pack/:platform/animated          the clips' pack: telegram (WebM video stickers),
///                                                        whatsapp (animated WebP), signal (APNG), zip (WebP)
///
/// The pack route is on `packs`, the group holding a pack slot, like every pack route.
struct ClipRoutes: Sendable {
    let service: StickersService

    func register<Context: RequestContext>(on router: Router<Context>, packs: RouterGroup<Context>) {
        let service = service
        router.get("/api/stickers/photos/:id/sticker.webp") { _, context in
            Response.data(try await service.animatedSticker(try context.photoID()), contentType: "image/webp")
        }
        router.rejectOtherMethods("/api/stickers/photos/:id/sticker.webp", allowed: [.get])

        packs.get("/api/stickers/pack/:platform/animated") { _, context in
            let name = context.parameters.get("platform") ?? ""
            let platform = MessengerPlatform(rawValue: name)
            guard platform != nil || name == "zip" else {
                throw WebError.notFound("no such pack: choose whatsapp, telegram, signal or zip")
            }
            let pack = try await service.animatedPack(for: platform)
            return Response.data(pack.data, contentType: "application/zip",
                                 extraHeaders: [.contentDisposition: "attachment; filename=\"\(pack.fileName)\""])
        }
        router.rejectOtherMethods("/api/stickers/pack/:platform/animated", allowed: [.get])
    }
}
