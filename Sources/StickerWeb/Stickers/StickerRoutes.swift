import Foundation
import Hummingbird
import StickerKit

/// The sticker tab's HTTP API. Handlers are nonisolated and `await` into the main-actor session.
///
///     GET    /api/stickers                      the tab's state (photos, progress, limits)
///     POST   /api/stickers/photos               upload: multipart/form-data or a raw image body (?name=)
///     DELETE /api/stickers/photos               remove every photo
///     POST   /api/stickers/library              add the library folder's photos
///     POST   /api/stickers/process              start processing (202); progress on /events
///     POST   /api/stickers/cancel               stop the running batch
///     GET    /api/stickers/events               server-sent events: a snapshot per change, then `done`
///     GET    /api/stickers/pack.zip             the pack of every processed photo
///     GET    /api/stickers/pack/:platform       the same for whatsapp (.wastickers), telegram or signal (.zip)
///     GET    /api/stickers/photos/:id/original  the photo itself
///     GET    /api/stickers/photos/:id/sticker.png, …/gradient.png
///     PUT    /api/stickers/photos/:id/style     restyle one processed sticker (JSON: StickerStyleJSON)
///     GET    /api/stickers/photos/:id/subjects  its subjects and which are chosen (SubjectsJSON)
///     PUT    /api/stickers/photos/:id/subjects  keep these subjects: {"ranks": [1, 2]} (1-based)
///     DELETE /api/stickers/photos/:id           remove one photo
struct StickerRoutes: Sendable {
    let session: StickerSession
    let capacity: ServerCapacity

    func register(on router: Router<some RequestContext>) {
        let session = session
        let capacity = capacity
        let uploads = UploadReader(capacity: capacity)

        router.get("/api/stickers") { _, _ in await session.snapshot() }
        router.rejectOtherMethods("/api/stickers", allowed: [.get])

        router.post("/api/stickers/photos") { request, _ in
            let photos = try await uploads.photos(from: request)
            try await session.add(photos)
            return EditedResponse(status: .created, response: await session.snapshot())
        }
        router.delete("/api/stickers/photos") { _, _ in
            await session.removeAll()
            return await session.snapshot()
        }
        router.rejectOtherMethods("/api/stickers/photos", allowed: [.post, .delete])

        router.post("/api/stickers/library") { _, _ in
            _ = try await session.addLibraryPhotos()
            return await session.snapshot()
        }
        router.rejectOtherMethods("/api/stickers/library", allowed: [.post])

        router.post("/api/stickers/process") { _, _ in
            await session.startProcessing()
            return EditedResponse(status: .accepted, response: await session.snapshot())
        }
        router.rejectOtherMethods("/api/stickers/process", allowed: [.post])

        router.post("/api/stickers/cancel") { _, _ in
            await session.cancel()
            return await session.snapshot()
        }
        router.rejectOtherMethods("/api/stickers/cancel", allowed: [.post])

        router.get("/api/stickers/events") { _, _ in
            // Held by the response until its stream ends (or the response is dropped).
            let slot = try capacity.claim(.eventStreams)
            let updates = await session.updates()
            return ServerSentEvents.response(updates, holding: slot) { snapshot in
                (snapshot.isProcessing ? "progress" : "done", snapshot)
            }
        }
        router.rejectOtherMethods("/api/stickers/events", allowed: [.get])

        router.get("/api/stickers/pack.zip") { _, _ in
            let slot = try capacity.claim(.packs)
            defer { withExtendedLifetime(slot) {} }
            let zip = try await session.pack()
            return Response.data(zip, contentType: "application/zip",
                                 extraHeaders: [.contentDisposition: "attachment; filename=\"stickers.zip\""])
        }
        router.rejectOtherMethods("/api/stickers/pack.zip", allowed: [.get])

        router.get("/api/stickers/pack/:platform") { _, context in
            guard let name = context.parameters.get("platform"), let platform = MessengerPlatform(rawValue: name) else {
                throw WebError.notFound("no such pack: choose whatsapp, telegram or signal")
            }
            let (data, fileName) = try await session.messengerPack(for: platform)
            return Response.data(data, contentType: "application/zip",
                                 extraHeaders: [.contentDisposition: "attachment; filename=\"\(fileName)\""])
        }
        router.rejectOtherMethods("/api/stickers/pack/:platform", allowed: [.get])

        router.get("/api/stickers/photos/:id/original") { _, context in
            let data = try await session.originalData(try context.photoID())
            return Response.image(data)
        }
        router.get("/api/stickers/photos/:id/sticker.png") { _, context in
            Response.data(try await session.png(try context.photoID(), .sticker), contentType: "image/png")
        }
        router.get("/api/stickers/photos/:id/gradient.png") { _, context in
            Response.data(try await session.png(try context.photoID(), .gradient), contentType: "image/png")
        }
        router.put("/api/stickers/photos/:id/style") { request, context in
            let style = try await StickerStyleJSON.decode(request).style()
            try await session.restyle(try context.photoID(), with: style)
            return await session.snapshot()
        }
        router.rejectOtherMethods("/api/stickers/photos/:id/style", allowed: [.put])
        router.get("/api/stickers/photos/:id/subjects") { _, context in
            try await session.subjects(try context.photoID())
        }
        router.put("/api/stickers/photos/:id/subjects") { request, context in
            let choice = try await SubjectChoiceJSON.decode(request).choice()
            let id = try context.photoID()
            try await session.chooseSubjects(id, choice)
            return try await session.subjects(id)
        }
        router.rejectOtherMethods("/api/stickers/photos/:id/subjects", allowed: [.get, .put])
        router.delete("/api/stickers/photos/:id") { _, context in
            try await session.remove(try context.photoID())
            return await session.snapshot()
        }
        router.rejectOtherMethods("/api/stickers/photos/:id", allowed: [.delete])
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
