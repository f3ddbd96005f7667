import Foundation
import Hummingbird
import StickerApp

/// The space tab's HTTP API.
///
///     GET  /api/space                          the listed photos, loading state, last error
///     POST /api/space/refresh[?date=D | ?start=D[&end=D]]
///                                              load random photos, a day or a range (answers when
///                                              loaded; 502 when the service fails and nothing was seen before)
///     POST /api/space/photos/:id/favorite      add to or remove from the favourites
///     POST /api/space/photos/:id/save[?hd=1]   download the image into the library
///     POST /api/space/photos/:id/sticker       add a saved photo to the sticker tab and process it
struct SpaceRoutes: Sendable {
    let service: SpaceService

    func register(on router: Router<some RequestContext>) {
        let service = service

        router.get("/api/space") { _, _ in await SpaceSnapshot(service) }
        router.rejectOtherMethods("/api/space", allowed: [.get])

        router.post("/api/space/refresh") { request, _ in
            let query = request.uri.queryParameters
            try await service.refresh(date: query["date"].map(String.init), start: query["start"].map(String.init),
                                      end: query["end"].map(String.init))
            return await SpaceSnapshot(service)
        }
        router.rejectOtherMethods("/api/space/refresh", allowed: [.post])

        router.post("/api/space/photos/:id/save") { request, context in
            let hd = request.uri.queryParameters["hd"].map { $0 == "1" || $0 == "true" } ?? false
            try await service.save(try context.spacePhotoID(), hd: hd)
            return await SpaceSnapshot(service)
        }
        router.rejectOtherMethods("/api/space/photos/:id/save", allowed: [.post])

        router.post("/api/space/photos/:id/favorite") { _, context in
            try await service.toggleFavorite(try context.spacePhotoID())
            return await SpaceSnapshot(service)
        }
        router.rejectOtherMethods("/api/space/photos/:id/favorite", allowed: [.post])

        router.post("/api/space/photos/:id/sticker") { _, context in
            let id = try await service.makeSticker(try context.spacePhotoID())
            return EditedResponse(status: .accepted, headers: [.location: "/api/stickers/photos/\(id.uuidString)/sticker.png"],
                                  response: await SpaceSnapshot(service))
        }
        router.rejectOtherMethods("/api/space/photos/:id/sticker", allowed: [.post])
    }
}

extension SpaceSnapshot: ResponseEncodable {}

extension RequestContext {
    func spacePhotoID() throws(WebError) -> String {
        guard let id = parameters.get("id"), !id.isEmpty else { throw .notFound("no space photo id") }
        return id
    }
}
