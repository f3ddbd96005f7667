import Foundation
import Hummingbird
import HummingbirdTesting
import Raster
import Testing
@testable import StickerWeb

/// Every limit of WebLimits, each tested at its edge: what passes, and the answer beyond it.
@Suite struct LimitsTests {
    @Test("every limit is reported to the page")
    func everyLimitIsReported() async throws {
        try await withWebApp { client in
            let response = try await client.execute(uri: "/api/stickers", method: .get)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            let limits = try #require(json["limits"] as? [String: Any])
            for name in ["maxUploadBytes", "maxPhotos", "maxPhotoPixels", "maxJSONBodyBytes", "maxEventStreams",
                         "maxConcurrentUploads", "maxConcurrentPacks", "maxRequestsInFlight", "requestBodySeconds",
                         "idleSeconds", "retryAfterSeconds"] {
                #expect(limits[name] != nil, "\(name) is not reported")
            }
        }
    }

    @Test("a photo over the pixel limit is refused from its header, with its size in words")
    func aPhotoOverThePixelLimitIsRefused() async throws {
        let limits = WebLimits(maxUploadBytes: 64 * 1024, maxPhotos: 5, maxPhotoPixels: 1_000)
        try await withWebApp(limits: limits) { client in
            let small = try ImageEncoder.png(Image(width: 40, height: 25, fill: RGBA8(r: 1, g: 2, b: 3)))
            #expect(try await client.upload(small, name: "small").status == .created)
            let large = try ImageEncoder.png(Image(width: 40, height: 26, fill: RGBA8(r: 1, g: 2, b: 3)))
            let refused = try await client.upload(large, name: "large")
            #expect(refused.status == .unprocessableContent)
            #expect(refused.errorMessage == "large is 40×26 (0.0 MP); photos are limited to 1000 pixels")
            #expect(try await client.snapshot().photos.map(\.name) == ["small"])
        }
    }

    @Test("a request body over the JSON limit is refused with 413, from its length or its bytes")
    func aLargeJSONBodyIsRefused() async throws {
        let limits = WebLimits(maxUploadBytes: 64 * 1024, maxPhotos: 5, maxJSONBodyBytes: 100)
        try await withWebApp(limits: limits) { client in
            let fits = try await client.execute(uri: "/api/stickers/cancel", method: .post,
                                                body: ByteBuffer(string: String(repeating: "x", count: 100)))
            #expect(fits.status == .ok)
            let tooLarge = try await client.execute(uri: "/api/stickers/cancel", method: .post,
                                                    body: ByteBuffer(string: String(repeating: "x", count: 101)))
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.errorMessage == "a request body is limited to 100 bytes; this one is 101 bytes")
        }
    }

    @Test("event streams beyond the limit get 429 with Retry-After while the open ones continue")
    func eventStreamsBeyondTheLimitAreRefused() async throws {
        let processor = FakePhotoProcessor(gateOpen: false)
        let limits = WebLimits(maxUploadBytes: 64 * 1024, maxPhotos: 5, maxEventStreams: 2, retryAfterSeconds: 3)
        let capacity = ServerCapacity(limits: limits)
        try await withWebApp(processor: processor, limits: limits, capacity: capacity) { client in
            try await client.upload(try samplePNG(), name: "a")
            #expect(try await client.execute(uri: "/api/stickers/process", method: .post).status == .accepted)
            // Two streams stay open while the batch waits on the processor's gate.
            async let first = client.readEvents()
            async let second = client.readEvents()
            try await waitUntil { capacity.inUse(.eventStreams) == 2 }

            let third = try await client.execute(uri: "/api/stickers/events", method: .get)
            #expect(third.status == .tooManyRequests)
            #expect(third.headers[.retryAfter] == "3")
            #expect(third.errorMessage?.contains("2 event streams are already open") == true)

            processor.openGate()
            #expect(try await first.events.last == "done")
            #expect(try await second.events.last == "done")
            try await waitUntil { capacity.inUse(.eventStreams) == 0 }
            #expect(try await client.execute(uri: "/api/stickers/events", method: .get).status == .ok)
        }
    }

    @Test("uploads, packs and requests beyond their concurrent limits get 503 with Retry-After, not a queue")
    func capacityLimitsAnswer503() async throws {
        let limits = WebLimits(maxUploadBytes: 64 * 1024, maxPhotos: 5, maxConcurrentUploads: 1,
                               maxConcurrentPacks: 1, maxRequestsInFlight: 3, retryAfterSeconds: 1)
        let capacity = ServerCapacity(limits: limits)
        try await withWebApp(limits: limits, capacity: capacity) { client in
            try await client.upload(try samplePNG(), name: "a")
            _ = try await client.processAll()

            var held = [try capacity.claim(.uploads)]
            let upload = try await client.upload(try samplePNG(), name: "b")
            #expect(upload.status == .serviceUnavailable)
            #expect(upload.headers[.retryAfter] == "1")
            #expect(upload.errorMessage == "1 uploads are already being received; try again in 1 s")
            held.append(try capacity.claim(.packs))
            let pack = try await client.execute(uri: "/api/stickers/pack.zip", method: .get)
            #expect(pack.status == .serviceUnavailable)
            #expect(pack.headers[.retryAfter] == "1")
            held.removeAll()
            #expect(try await client.upload(try samplePNG(), name: "b").status == .created)
            #expect(try await client.execute(uri: "/api/stickers/pack.zip", method: .get).status == .ok)

            let requests = try (0..<3).map { _ in try capacity.claim(.requests) }
            let busy = try await client.execute(uri: "/api/stickers", method: .get)
            #expect(busy.status == .serviceUnavailable)
            #expect(busy.headers[.retryAfter] == "1")
            #expect(busy.errorMessage?.hasPrefix("the server is busy") == true)
            withExtendedLifetime(requests) {}
        }
        #expect(capacity.inUse(.requests) == 0 && capacity.inUse(.uploads) == 0 && capacity.inUse(.packs) == 0)
    }

    @Test("a slot is given back when its holder goes away")
    func slotsAreReleased() throws {
        let capacity = ServerCapacity(limits: WebLimits(maxEventStreams: 1))
        do {
            let slot = try capacity.claim(.eventStreams)
            #expect(capacity.inUse(.eventStreams) == 1)
            #expect(throws: WebError.self) { try capacity.claim(.eventStreams) }
            withExtendedLifetime(slot) {}
        }
        #expect(capacity.inUse(.eventStreams) == 0)
        _ = try capacity.claim(.eventStreams)
    }

    @Test("a request body that stops arriving is a 408 once the body deadline passes")
    func aStalledBodyTimesOut() async throws {
        // A body that sends a few bytes, then nothing and never ends.
        let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        continuation.yield(ByteBuffer(string: "partial"))
        let request = Request(head: HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: "/api/stickers/photos"),
                              body: RequestBody(asyncSequence: stream))
        await #expect(throws: WebError.requestTimeout("an upload did not arrive within 0.05 s; send it again on a faster connection")) {
            _ = try await RequestBodyReader.collect(request, maxBytes: 1024, seconds: 0.05, what: "an upload")
        }
        continuation.finish()
    }
}

/// Polls `condition` until it holds; fails after about 30 s (a bound for a stuck test on a busy
/// machine, not a timing assertion).
func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<6_000 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(5))
    }
    throw TestFailure("the condition never held")
}
