import Foundation
import Hummingbird
import StickerApp
import StickerKit

/// The colours tab's HTTP API.
///
///     GET  /api/colors                        the tab's state (photo, count, scheme, history)
///     POST /api/colors/photo                  choose a photo: an upload (raw or multipart, one file)
///                                             or ?sticker=ID, a photo of the sticker tab
///     GET  /api/colors/photo                  the chosen photo
///     POST /api/colors/extract?count=N[&mood=M]  extract N (3…10) colours, of a mood if given; answers when done
///     POST /api/colors/history/:id/favorite   add to or remove from the favourites
///     GET  /api/colors/export?format=F[&id=ID] the latest (or that) scheme in a PaletteFormat
struct ColorRoutes: Sendable {
    let service: ColorsService
    let capacity: ServerCapacity

    func register(on router: Router<some RequestContext>) {
        let service = service
        let uploads = UploadReader(capacity: capacity)

        router.get("/api/colors") { _, _ in await ColorsSnapshot(service) }
        router.rejectOtherMethods("/api/colors", allowed: [.get])

        router.post("/api/colors/photo") { request, _ in
            if let text = request.uri.queryParameters["sticker"] {
                guard let id = UUID(uuidString: String(text)) else { throw WebError.notFound("no photo with id \(text)") }
                try await service.choose(stickerPhoto: id)
            } else {
                let photos = try await uploads.photos(from: request)
                guard photos.count == 1 else { throw WebError.badRequest("send one photo, not \(photos.count)") }
                await service.choose(photos[0])
            }
            return await ColorsSnapshot(service)
        }
        router.get("/api/colors/photo") { _, _ in
            let data = try await service.chosenPhotoData()
            return Response.image(data)
        }
        router.rejectOtherMethods("/api/colors/photo", allowed: [.get, .post])

        router.post("/api/colors/extract") { request, _ in
            let text = request.uri.queryParameters["count"].map(String.init) ?? ""
            guard let count = Int(text) else { throw WebError.badRequest("count must be a number, not \"\(text)\"") }
            try await service.extract(count: count, mood: request.uri.queryParameters["mood"].map(String.init))
            return await ColorsSnapshot(service)
        }
        router.rejectOtherMethods("/api/colors/extract", allowed: [.post])

        router.post("/api/colors/history/:id/favorite") { _, context in
            try await service.toggleFavorite(try context.uuidParameter("id", what: "colour scheme"))
            return await ColorsSnapshot(service)
        }
        router.rejectOtherMethods("/api/colors/history/:id/favorite", allowed: [.post])

        router.get("/api/colors/export") { request, _ in
            let query = request.uri.queryParameters
            let format = query["format"].map(String.init) ?? "json"
            var id: UUID?
            if let text = query["id"] {
                guard let parsed = UUID(uuidString: String(text)) else {
                    throw WebError.notFound("no colour scheme with id \(text)")
                }
                id = parsed
            }
            let export = try await service.export(formatName: format, record: id)
            return Response.data(export.data, contentType: export.format.mediaType, extraHeaders: [
                .contentDisposition: "attachment; filename=\"\(export.fileName.replacingOccurrences(of: "\"", with: "_"))\"",
            ])
        }
        router.rejectOtherMethods("/api/colors/export", allowed: [.get])
    }
}

extension ColorsSnapshot: ResponseEncodable {}
