// libFuzzer target: the web app's multipart/form-data parser. The first line of the input is the
// boundary (as a Content-Type would give it), the rest the body.
import Foundation

/// The parser reports malformed bodies as `WebError.badRequest`; the real type lives beside
/// Hummingbird, which the fuzz build does not link.
enum WebError: Error { case badRequest(String) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    guard let newline = data.firstIndex(of: 0x0A) else { return 0 }
    let contentType = String(decoding: data[..<newline], as: UTF8.self)
    guard let boundary = MultipartForm.boundary(fromContentType: contentType) else { return 0 }
    if let form = try? MultipartForm(data: Data(data[(newline + 1)...]), boundary: boundary) {
        for file in form.files { precondition(file.data.count <= data.count) }
    }
    return 0
}
