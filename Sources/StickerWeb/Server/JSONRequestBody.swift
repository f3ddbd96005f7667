import Foundation
import Hummingbird

/// A request's small JSON body decoded, the one way the API's JSON bodies are read: more than
/// `maxBytes` is a 413 with `tooLarge`, JSON that is not a `Body` a 400 naming `expected` and the
/// decoder's reason.
protocol JSONRequestBody: Decodable {}

extension JSONRequestBody {
    static func decode(_ request: Request, maxBytes: Int = 4096, tooLarge: String, expected: String) async throws(WebError) -> Self {
        let body: ByteBuffer
        do { body = try await request.body.collect(upTo: maxBytes) } catch {
            throw .tooLarge(tooLarge)
        }
        do {
            return try JSONDecoder().decode(Self.self, from: Data(buffer: body))
        } catch {
            throw .badRequest("\(expected): \(error)")
        }
    }
}
