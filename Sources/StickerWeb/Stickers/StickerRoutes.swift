import Foundation
import Hummingbird
import StickerApp
import StickerKit

/// The sticker tab's HTTP API: each handler decodes the request, calls the main-actor
/// `StickersService` (which holds all the tab's state) and encodes its answer; the service's
/// `ServiceError`s become HTTP statuses in `WebError.init(_:)`. Every route that builds a pack is
/// registered on `packs`, a group whose middleware holds one of the pack slots
/// (`WebLimits.maxConcurrentPacks`) for the whole request.
///
///     GET    /api/stickers                      the tab's state (photos, progress, limits)
///     POST   /api/stickers/photos               upload: multipart/form-data or a raw image body (?name=)
///     DELETE /api/stickers/photos               remove every photo
///     POST   /api/stickers/library              add the library folder's photos
///     POST   /api/stickers/process              start processing (202); progress on /events
///     POST   /api/stickers/cancel               stop the running batch
///     GET    /api/stickers/events               server-sent events: a snapshot per change, then `done`
///     GET    /api/stickers/pack.zip             the pack of every processed photo and clip
///     GET    /api/stickers/pack/:platform       the same for whatsapp (.wastickers), telegram or signal (.zip)
///     GET    /api/stickers/photos/:id/original  the photo itself
///     GET    /api/stickers/photos/:id/sticker.png, …/gradient.png
///     PUT    /api/stickers/photos/:id/style     restyle one processed sticker (JSON: StickerStyleJSON)
///     GET    /api/stickers/photos/:id/subjects  its subjects and which are chosen (SubjectsJSON)
///     PUT    /api/stickers/photos/:id/subjects  keep these subjects: {"ranks": [1, 2]} (1-based), or {"point": [x, y]}
///     …/mask.png, …/edits, …/caption            the editor (EditorRoutes)
///     DELETE /api/stickers/photos/:id           remove one photo
struct StickerRoutes: Sendable {
    let service: StickersService
    let capacity: ServerCapacity

    func register(on router: Router<some RequestContext>) {
        let service = service
        let capacity = capacity
        let limits = capacity.limits
        let uploads = UploadReader(capacity: capacity)
        @Sendable func snapshot() async -> StickersSnapshot {
            await StickersSnapshot(service.overview, limits: limits)
        }
        let packs = router.group().add(middleware: PackSlotMiddleware(capacity: capacity))

        router.get("/api/stickers") { _, _ in await snapshot() }
        router.rejectOtherMethods("/api/stickers", allowed: [.get])

        router.post("/api/stickers/photos") { request, _ in
            let photos = try await uploads.photos(from: request, clips: true)
            try await service.add(photos)
            return EditedResponse(status: .created, response: await snapshot())
        }
        router.delete("/api/stickers/photos") { _, _ in
            await service.removeAll()
            return await snapshot()
        }
        router.rejectOtherMethods("/api/stickers/photos", allowed: [.post, .delete])

        router.post("/api/stickers/library") { _, _ in
            try await service.addFolderPhotos()
            return await snapshot()
        }
        router.rejectOtherMethods("/api/stickers/library", allowed: [.post])

        router.post("/api/stickers/process") { _, _ in
            await service.startProcessing()
            return EditedResponse(status: .accepted, response: await snapshot())
        }
        router.rejectOtherMethods("/api/stickers/process", allowed: [.post])

        router.post("/api/stickers/cancel") { _, _ in
            await service.cancel()
            return await snapshot()
        }
        router.rejectOtherMethods("/api/stickers/cancel", allowed: [.post])

        router.get("/api/stickers/events") { _, _ in
            // Held by the response until its stream ends (or the response is dropped).
            let slot = try capacity.claim(.eventStreams)
            let updates = await service.updates()
            return ServerSentEvents.response(updates, holding: slot) { overview in
                (overview.isProcessing ? "progress" : "done", StickersSnapshot(overview, limits: limits))
            }
        }
        router.rejectOtherMethods("/api/stickers/events", allowed: [.get])

        packs.get("/api/stickers/pack.zip") { _, _ in
            let pack = try await service.zipPack()
            return Response.data(pack.data, contentType: "application/zip",
                                 extraHeaders: [.contentDisposition: "attachment; filename=\"\(pack.fileName)\""])
        }
        router.rejectOtherMethods("/api/stickers/pack.zip", allowed: [.get])

        packs.get("/api/stickers/pack/:platform") { _, context in
            guard let name = context.parameters.get("platform"), let platform = MessengerPlatform(rawValue: name) else {
                throw WebError.notFound("no such pack: choose whatsapp, telegram or signal")
            }
            let pack = try await service.messengerPack(for: platform)
            return Response.data(pack.data, contentType: "application/zip",
                                 extraHeaders: [.contentDisposition: "attachment; filename=\"\(pack.fileName)\""])
        }
        router.rejectOtherMethods("/api/stickers/pack/:platform", allowed: [.get])

        router.get("/api/stickers/photos/:id/original") { _, context in
            let data = try await service.originalData(try context.photoID())
            return Response.image(data)
        }
        router.get("/api/stickers/photos/:id/sticker.png") { _, context in
            Response.data(try await service.png(try context.photoID(), .sticker), contentType: "image/png")
        }
        router.get("/api/stickers/photos/:id/gradient.png") { _, context in
            Response.data(try await service.png(try context.photoID(), .gradient), contentType: "image/png")
        }
        router.put("/api/stickers/photos/:id/style") { request, context in
            let style = try await StickerStyleJSON.decode(request).style()
            try await service.restyle(try context.photoID(), with: style)
            return await snapshot()
        }
        router.rejectOtherMethods("/api/stickers/photos/:id/style", allowed: [.put])
        router.get("/api/stickers/photos/:id/subjects") { _, context in
            SubjectsJSON(try await service.subjects(try context.photoID()))
        }
        router.put("/api/stickers/photos/:id/subjects") { request, context in
            let asked = try await SubjectChoiceJSON.decode(request)
            let id = try context.photoID()
            if let point = try asked.clickedPoint() {
                // A click: the subject under it, as `--point` cuts it (maybe a closer look: the network).
                try await service.chooseSubject(id, atX: point.x, y: point.y)
            } else {
                try await service.chooseSubjects(id, try asked.choice())
            }
            return SubjectsJSON(try await service.subjects(id))
        }
        router.rejectOtherMethods("/api/stickers/photos/:id/subjects", allowed: [.get, .put])
        router.delete("/api/stickers/photos/:id") { _, context in
            try await service.remove(try context.photoID())
            return await snapshot()
        }
        router.rejectOtherMethods("/api/stickers/photos/:id", allowed: [.delete])
        ClipRoutes(service: service).register(on: router, packs: packs)
        for path in ["original", "sticker.png", "gradient.png"] {
            router.rejectOtherMethods("/api/stickers/photos/:id/\(path)", allowed: [.get])
        }
    }
}

extension StickersSnapshot: ResponseEncodable {}

extension RequestContext {
    /// The `:id` path parameter as a UUID; a malformed one is a 404 (no such photo), not a 500.
    func photoID() throws(WebError) -> UUID {
        try uuidParameter("id", what: "photo")
    }

    func uuidParameter(_ name: String, what: String) throws(WebError) -> UUID {
        guard let text = parameters.get(name), let id = UUID(uuidString: text) else {
            throw .notFound("no \(what) with id \(parameters.get(name) ?? "")")
        }
        return id
    }
}
