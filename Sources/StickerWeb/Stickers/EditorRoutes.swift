import Foundation
import Hummingbird
import Raster
import StickerApp
import StickerKit

/// The sticker editor's HTTP API (the page's editor.js): each handler decodes, calls the
/// `StickersService`, encodes. The page keeps undo and redo; the server holds the current state.
///
///     GET    /api/stickers/photos/:id/mask.png  the unedited cut-out's alpha (full size), which the page previews strokes on
///     GET    /api/stickers/photos/:id/edits     the brush strokes applied (EditsJSON)
///     PUT    /api/stickers/photos/:id/edits     replace them all (EditsJSON; no strokes: unedited)
///     PUT    /api/stickers/photos/:id/caption   the caption (CaptionJSON; empty text: none)
///
/// A click on the photo is `PUT …/subjects` with `{"point": [x, y]}` (StickerRoutes).
struct EditorRoutes: Sendable {
    let service: StickersService
    let limits: WebLimits

    func register(on router: Router<some RequestContext>) {
        let service = service
        let limits = limits
        router.get("/api/stickers/photos/:id/mask.png") { _, context in
            Response.data(try await service.png(try context.photoID(), .mask), contentType: "image/png")
        }
        router.rejectOtherMethods("/api/stickers/photos/:id/mask.png", allowed: [.get])

        router.get("/api/stickers/photos/:id/edits") { _, context in
            EditsJSON(try await service.edits(try context.photoID()))
        }
        router.put("/api/stickers/photos/:id/edits") { request, context in
            let strokes = try await EditsJSON.decode(request, maxBytes: limits.maxJSONBodyBytes).brushStrokes()
            let id = try context.photoID()
            try await service.setEdits(id, strokes)
            return StickersSnapshot(await service.overview, limits: limits)
        }
        router.rejectOtherMethods("/api/stickers/photos/:id/edits", allowed: [.get, .put])

        router.put("/api/stickers/photos/:id/caption") { request, context in
            let caption = try await CaptionJSON.decode(request).caption()
            try await service.setCaption(try context.photoID(), caption)
            return StickersSnapshot(await service.overview, limits: limits)
        }
        router.rejectOtherMethods("/api/stickers/photos/:id/caption", allowed: [.put])
    }
}

/// A sticker's brush strokes as the page sends and reads them (`BrushStrokes`' own form):
///
///     {"width": 1024, "height": 768, "strokes": [{"mode": "erase", "radius": 12, "points": [[100, 120], …]}]}
///
/// `width`×`height` is the size the strokes were painted at (the page's canvas, of the photo's
/// shape); without strokes both may be left out.
struct EditsJSON: Codable, Sendable, Equatable, ResponseEncodable, JSONRequestBody {
    var width: Int?
    var height: Int?
    var strokes: [BrushStrokes.Stroke]

    init(_ strokes: BrushStrokes?) {
        width = strokes?.width
        height = strokes?.height
        self.strokes = strokes?.strokes ?? []
    }

    /// The strokes asked for; strokes without the size they were painted at are refused (400).
    func brushStrokes() throws(WebError) -> BrushStrokes {
        guard let width, let height else {
            guard strokes.isEmpty else { throw .badRequest("strokes need the size they were painted at: \"width\" and \"height\"") }
            return BrushStrokes(width: 1, height: 1, strokes: [])
        }
        return BrushStrokes(width: width, height: height, strokes: strokes)
    }

    /// The JSON body of `request` (at most the JSON body limit).
    static func decode(_ request: Request, maxBytes: Int) async throws(WebError) -> EditsJSON {
        try await decode(request, maxBytes: maxBytes,
                         tooLarge: "brush strokes are at most \(maxBytes / 1024) KB of JSON: fewer strokes, or fewer points in them",
                         expected: "the strokes are not the JSON expected "
                             + "({\"width\": W, \"height\": H, \"strokes\": [{\"mode\": \"erase\", \"radius\": R, \"points\": [[x, y]]}]})")
    }
}

/// A sticker's caption as the page shows and sends it (`PUT /api/stickers/photos/:id/caption`):
///
///     {"text": "Good morning", "position": "bottom", "color": "#FFFFFF"}
///
/// Empty text (or only spaces): no caption. `position` (`top` or `bottom`, default bottom) and
/// `color` (hex, default white) may be left out. At most `Caption.maximumLength` characters.
struct CaptionJSON: Codable, Sendable, Equatable, JSONRequestBody {
    var text: String
    var position: Caption.Position?
    var color: String?

    init(_ caption: Caption) {
        text = caption.text
        position = caption.position
        color = caption.color.hex
    }

    /// The caption asked for (nil: none); too long or a colour that is not hex is refused (400).
    func caption() throws(WebError) -> Caption? {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        guard text.count <= Caption.maximumLength else {
            throw .badRequest("the caption has \(text.count) characters; at most \(Caption.maximumLength) fit legibly on a sticker")
        }
        var caption = Caption(text: text, position: position ?? .bottom)
        if let color {
            guard let rgb = RGBA8(hex: color) else { throw .badRequest("the caption colour must be hex such as #FFFFFF, not '\(color)'") }
            caption.color = rgb
        }
        return caption
    }

    /// The JSON body of `request` (at most 4 KB: 200 characters, even of 4-byte ones, fit).
    static func decode(_ request: Request) async throws(WebError) -> CaptionJSON {
        try await decode(request, tooLarge: "a caption is at most \(Caption.maximumLength) characters, at most 4 KB of JSON",
                         expected: "the caption is not the JSON expected ({\"text\": \"…\", \"position\": \"bottom\", \"color\": \"#FFFFFF\"})")
    }
}
