import Foundation
import Hummingbird

/// A `text/event-stream` response (the EventSource protocol): each element of `updates` becomes
/// one event with a name and a JSON `data:` line. The stream ends when `updates` does; the page
/// closes its EventSource on the final event so the browser does not reconnect.
enum ServerSentEvents {
    /// `slot` (the stream's place among the open streams) is kept until the stream ends, or until
    /// the response is dropped unwritten.
    static func response<Updates: AsyncSequence & Sendable, Payload: Encodable & SendableMetatype>(
        _ updates: Updates,
        holding slot: ServerCapacity.Slot? = nil,
        event: @escaping @Sendable (Updates.Element) -> (name: String, payload: Payload)
    ) -> Response where Updates.Element: Sendable {
        let headers: HTTPFields = [
            .contentType: "text/event-stream",
            .cacheControl: "no-store",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            let encoder = JSONEncoder()
            for try await update in updates {
                let (name, payload) = event(update)
                let json = String(decoding: try encoder.encode(payload), as: UTF8.self)
                try await writer.write(ByteBuffer(string: "event: \(name)\ndata: \(json)\n\n"))
            }
            try await writer.finish(nil)
            withExtendedLifetime(slot) {}
        })
    }
}
