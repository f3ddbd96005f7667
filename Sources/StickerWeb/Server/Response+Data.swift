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
}

enum ImageFormatContentType {
    static func of(_ data: Data) -> String {
        switch ImageFormat.sniff(data) {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case nil: "application/octet-stream"
        }
    }
}
