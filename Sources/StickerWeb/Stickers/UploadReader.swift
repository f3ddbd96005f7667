import Foundation
import Hummingbird
import Raster

/// Reads the photos of an upload request: either a `multipart/form-data` body (one or more file
/// parts) or a raw body holding one image, named by the `name` query parameter. Refuses bodies
/// over the size limit before reading them whole, and anything that is not a JPEG or PNG by its
/// magic bytes — whatever its file name or content type says.
struct UploadReader: Sendable {
    /// One uploaded photo: its display name and bytes, checked to be a JPEG or PNG.
    struct Upload: Sendable {
        var name: String
        var data: Data
    }

    var maxBytes: Int

    func photos(from request: Request) async throws(WebError) -> [Upload] {
        let contentType = request.headers[.contentType] ?? "application/octet-stream"
        let limit = "uploads are limited to \(maxBytes / 1_048_576) MB"
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw .tooLarge("the upload is \(length / 1_048_576) MB; \(limit)")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBytes)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw .tooLarge(limit)
        } catch {
            throw .badRequest("the upload could not be read: \(error)")
        }
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
            guard ImageFormat.sniff(file.data)?.isDecodable == true else {
                throw .unsupportedMediaType("\(label) is not a photo: only JPEG and PNG images are accepted")
            }
            return Upload(name: name, data: file.data)
        }
    }

    static let rawTypes = ["image/", "application/octet-stream"]

    /// The file's name without folders or extension, as the pack will use it.
    static func displayName(_ fileName: String) -> String {
        let last = fileName.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? fileName
        let base = (last as NSString).deletingPathExtension
        return base.isEmpty ? "photo" : String(base.prefix(100))
    }
}
