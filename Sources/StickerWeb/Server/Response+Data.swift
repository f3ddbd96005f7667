import Foundation
import Hummingbird
import Raster

extension Response {
    /// A complete body of bytes with its content type; never cached, since results change as a
    /// person reprocesses.
    static func data(_ data: Data, contentType: String, extraHeaders: HTTPFields = [:]) -> Response {
        var headers: HTTPFields = [.contentType: contentType, .cacheControl: "no-store"]
        headers.append(contentsOf: extraHeaders)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// Image bytes, their content type told by their magic bytes (Raster's sniffer).
    static func image(_ data: Data) -> Response {
        .data(data, contentType: ImageFormat.sniff(data)?.mimeType ?? "application/octet-stream")
    }
}
