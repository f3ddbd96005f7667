import Foundation
import Hummingbird
import Raster
import StickerApp
import StickerKit

/// Reads the photos of an upload request: either a `multipart/form-data` body (one or more file
/// parts) or a raw body holding one image, named by the `name` query parameter. Refuses bodies
/// over the size limit before reading them whole (and bodies that stop arriving), photos over
/// the pixel limit by their header, and anything that is not a JPEG, PNG or WebP by its
/// magic bytes — whatever its file name or content type says.
struct UploadReader: Sendable {
    /// One uploaded photo: its display name and bytes, checked to be a JPEG, PNG or WebP.
    typealias Upload = StickersService.Upload

    let capacity: ServerCapacity

    /// The uploaded files; clips among them only where `clips` says they are welcome (the sticker
    /// tab makes animated stickers of them; the colours tab needs a still photo).
    func photos(from request: Request, clips: Bool = false) async throws(WebError) -> [Upload] {
        let limits = capacity.limits
        // One of the few uploads received at once: each may hold maxUploadBytes in memory.
        let slot = try capacity.claim(.uploads)
        defer { withExtendedLifetime(slot) {} }
        let contentType = request.headers[.contentType] ?? "application/octet-stream"
        let body = try await RequestBodyReader.collect(request, maxBytes: limits.maxUploadBytes,
                                                       seconds: limits.requestBodySeconds, what: "an upload")
        let data = Data(buffer: body)

        let files: [(name: String?, data: Data)]
        if let boundary = MultipartForm.boundary(fromContentType: contentType) {
            files = try MultipartForm(data: data, boundary: boundary).files.map { ($0.fileName, $0.data) }
            guard !files.isEmpty else { throw .badRequest("the form holds no files") }
        } else if contentType.lowercased().hasPrefix("multipart/") {
            throw .badRequest("a multipart upload needs multipart/form-data with a boundary")
        } else if Self.rawTypes.contains(where: contentType.lowercased().hasPrefix) {
            files = [(request.uri.queryParameters["name"].map(String.init), data)]
        } else {
            throw .unsupportedMediaType("send image/jpeg, image/png or multipart/form-data, not \(contentType)")
        }

        return try files.map { file throws(WebError) in
            let name = Self.displayName(file.name ?? "")
            // Messages name the file when the client named it.
            let label = file.name == nil ? "the upload" : name
            guard !file.data.isEmpty else { throw .badRequest("\(label) is empty") }
            // A clip (MP4/MOV, WebM/MKV, GIF, APNG: by its magic bytes, as `make` tells them) is a photo-like item.
            // An animated PNG is a still PNG to the colours tab (its default image, as libpng reads it).
            if ClipDetection.isClip(head: file.data, name: ""), clips || ImageFormat.sniff(file.data) != .png {
                guard clips else { throw .unsupportedMediaType("\(label) is a clip: choose a photo (JPEG, PNG or WebP)") }
                return Upload(name: name, data: file.data)
            }
            guard ImageFormat.sniff(file.data)?.isDecodable == true else {
                throw .unsupportedMediaType(clips
                    ? "\(label) is neither a photo nor a clip: JPEG, PNG or WebP photos and MP4/MOV, WebM/MKV, GIF or APNG clips are accepted"
                    : "\(label) is not a photo: only JPEG, PNG and WebP images are accepted")
            }
            // The size from the header, before any decoding; an unreadable header is left for
            // processing to report, with its reason, as an invalid photo.
            if let info = try? ImageDecoder.info(file.data), info.width * info.height > limits.maxPhotoPixels {
                let megapixels = Double(info.width * info.height) / 1_000_000
                throw .unprocessable("\(label) is \(info.width)×\(info.height) (\(String(format: "%.1f", megapixels)) MP); "
                                     + "photos are limited to \(Self.megapixels(limits.maxPhotoPixels))")
            }
            return Upload(name: name, data: file.data)
        }
    }

    static let rawTypes = ["image/", "video/", "application/octet-stream"]

    static func megapixels(_ pixels: Int) -> String {
        pixels >= 1_000_000 ? "\(pixels / 1_000_000) MP" : "\(pixels) pixels"
    }

    /// The file's name without folders or extension, as the pack will use it.
    static func displayName(_ fileName: String) -> String {
        let last = fileName.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? fileName
        let base = (last as NSString).deletingPathExtension
        return base.isEmpty ? "photo" : String(base.prefix(100))
    }
}
