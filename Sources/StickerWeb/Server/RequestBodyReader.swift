import Hummingbird

/// Reads a request's whole body within its size and time limits: a body over `maxBytes` is a 413
/// (refused from its Content-Length before any byte is read, when it has one), a body still
/// arriving after `seconds` is a 408. Without the deadline a client sending one byte now and then
/// would hold its connection, its buffer and its slot for as long as it liked.
enum RequestBodyReader {
    static func collect(_ request: Request, maxBytes: Int, seconds: Double, what: String) async throws(WebError) -> ByteBuffer {
        let limit = "\(what) is limited to \(Self.size(maxBytes))"
        if let length = request.headers[.contentLength].flatMap(Int.init), length > maxBytes {
            throw .tooLarge("\(limit); this one is \(Self.size(length))")
        }
        let body = request.body
        do {
            return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
                group.addTask { try await body.collect(upTo: maxBytes) }
                group.addTask {
                    try await Task.sleep(for: .seconds(seconds))
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let buffer = first else {
                    throw WebError.requestTimeout("\(what) did not arrive within \(Self.seconds(seconds)); send it again on a faster connection")
                }
                return buffer
            }
        } catch let error as WebError {
            throw error
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw .tooLarge(limit)
        } catch {
            throw .badRequest("\(what) could not be read: \(error)")
        }
    }

    static func size(_ bytes: Int) -> String {
        bytes >= 1_048_576 ? "\(bytes / 1_048_576) MB" : bytes >= 1024 ? "\(bytes / 1024) KB" : "\(bytes) bytes"
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
