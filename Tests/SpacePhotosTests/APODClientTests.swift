import APODTestServer
import Foundation
import Testing
@testable import SpacePhotos

@Test func randomPhotosAsksForCountWithTheKeyAndThumbnails() async throws {
    try await FakeAPODServer.withRunning { server in
        let photos = try await server.client().randomPhotos(count: 5)
        #expect(photos.map(\.day) == ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"])
        #expect(photos[0].copyright == "Jane Doe")
        #expect(photos[2].mediaType == .video)
        #expect(photos[2].thumbnailURL != nil)
        let request = try #require(await server.state.apiRequests.first)
        #expect(request.query == ["count": "5", "api_key": "test-key", "thumbs": "true"])
    }
}

@Test(arguments: [0, 101, -1])
func aCountOutsideTheAPIsRangeIsRefusedBeforeSending(count: Int) async throws {
    try await FakeAPODServer.withRunning { server in
        await #expect(throws: APODError.invalidRequest("count must be between 1 and 100, not \(count)")) {
            try await server.client().randomPhotos(count: count)
        }
        #expect(await server.state.apiRequests.isEmpty)
    }
}

@Test func severalDaysAreFetchedConcurrentlyAndKeepTheirOrder() async throws {
    try await FakeAPODServer.withRunning { server in
        let days = ["2020-05-05", "2001-01-01", "2020-05-05", "2015-07-14", "1999-12-31", "2010-10-10"]
        let photos = try await server.client().photos(for: days.compactMap(APODDay.date(from:)))
        #expect(photos.map(\.day) == ["2020-05-05", "2001-01-01", "2015-07-14", "1999-12-31", "2010-10-10"])
        let asked = await server.state.apiRequests.compactMap { $0.query["date"] }
        #expect(Set(asked) == Set(days))
        #expect(asked.count == 5)
    }
}

@Test func theAPIsErrorMessageBecomesTheError() async throws {
    try await FakeAPODServer.withRunning { server in
        await #expect(throws: APODError.api(status: 400, message: "Date must be between Jun 16, 1995 and today: 1990-01-01.")) {
            try await server.client().photos(for: [APODDay.date(from: "1990-01-01")!])
        }
        await server.state.enqueueAPI(.apiError(status: 404, message: "No data available for date: 2024-01-05"))
        await #expect(throws: APODError.api(status: 404, message: "No data available for date: 2024-01-05")) {
            try await server.client().randomPhotos(count: 1)
        }
        await server.state.enqueueAPI(.status(
            403, headers: ["Content-Type": "application/json"],
            body: #"{"error":{"code":"API_KEY_INVALID","message":"An invalid api_key was supplied."}}"#))
        await #expect(throws: APODError.api(status: 403, message: "API_KEY_INVALID: An invalid api_key was supplied.")) {
            try await server.client().randomPhotos(count: 1)
        }
    }
}

@Test func aFailingDayFailsTheBatch() async throws {
    try await FakeAPODServer.withRunning { server in
        await server.state.setAPIDefault(.apiError(status: 404, message: "No data"))
        await #expect(throws: APODError.api(status: 404, message: "No data")) {
            try await server.client().photos(for: ["2020-01-01", "2020-01-02", "2020-01-03"].compactMap(APODDay.date(from:)))
        }
    }
}

@Test func rateLimitingHonoursRetryAfterThenSucceeds() async throws {
    try await FakeAPODServer.withRunning { server in
        let recorder = Recorder()
        await server.state.enqueueAPI(.rateLimited(retryAfter: "2"))
        let photos = try await server.client(recorder: recorder).randomPhotos(count: 2)
        #expect(photos.count == 2)
        #expect(await server.state.apiRequests.count == 2)
        // The recorded wait is what was left of the server's 2 s when the retry came due.
        let wait = try #require(recorder.sleeps.first)
        #expect(recorder.sleeps.count == 1)
        #expect(wait > .seconds(1) && wait <= .seconds(2))
    }
}

@Test func aRetryAfterLongerThanTheBoundIsRateLimitedAtOnce() async throws {
    try await FakeAPODServer.withRunning { server in
        let recorder = Recorder()
        await server.state.enqueueAPI(.rateLimited(retryAfter: "3600"))
        await #expect(throws: APODError.rateLimited(retryAfter: .seconds(3600))) {
            try await server.client(recorder: recorder).randomPhotos(count: 2)
        }
        #expect(recorder.sleeps.isEmpty)
        #expect(await server.state.apiRequests.count == 1)
    }
}

@Test func stillRateLimitedAfterWaitingIsRateLimited() async throws {
    try await FakeAPODServer.withRunning { server in
        await server.state.setAPIDefault(.rateLimited(retryAfter: "0"))
        await #expect(throws: APODError.rateLimited(retryAfter: .zero)) {
            try await server.client(maxAttempts: 3).randomPhotos(count: 2)
        }
        #expect(await server.state.apiRequests.count == 3)
        // Without Retry-After the client does not guess: it stops at once.
        await server.state.setAPIDefault(.rateLimited(retryAfter: nil))
        await #expect(throws: APODError.rateLimited(retryAfter: nil)) {
            try await server.client().randomPhotos(count: 2)
        }
        #expect(await server.state.apiRequests.count == 4)
    }
}

@Test func serverErrorsAreRetriedWithGrowingBackoff() async throws {
    try await FakeAPODServer.withRunning { server in
        let recorder = Recorder()
        await server.state.enqueueAPI(.status(500), .status(503))
        let photos = try await server.client(recorder: recorder, maxAttempts: 3).randomPhotos(count: 1)
        #expect(photos.count == 1)
        #expect(recorder.sleeps.count == 2)
        #expect(recorder.sleeps[0] >= .milliseconds(50) && recorder.sleeps[0] <= .milliseconds(100))
        #expect(recorder.sleeps[1] >= .milliseconds(100) && recorder.sleeps[1] <= .milliseconds(200))
    }
}

@Test func persistentServerErrorsGiveUpAfterTheBoundedAttempts() async throws {
    try await FakeAPODServer.withRunning { server in
        await server.state.setAPIDefault(.status(502, body: "Bad Gateway"))
        await #expect(throws: APODError.server(status: 502)) {
            try await server.client(maxAttempts: 4).randomPhotos(count: 1)
        }
        #expect(await server.state.apiRequests.count == 4)
    }
}

@Test func malformedJSONIsAMalformedResponse() async throws {
    try await FakeAPODServer.withRunning { server in
        await server.state.enqueueAPI(.malformedJSON)
        await #expect {
            try await server.client().randomPhotos(count: 3)
        } throws: { error in
            if case .malformedResponse(let message) = error as? APODError { message.hasPrefix("not JSON") } else { false }
        }
    }
}

@Test func aVideoIsListedAndAMissingFieldIsSkippedWithALoggedReason() async throws {
    try await FakeAPODServer.withRunning { server in
        let recorder = Recorder()
        await server.state.enqueueAPI(.items([FakeAPODCatalog.videoWithoutThumbnail, FakeAPODCatalog.missingURL]))
        let photos = try await server.client(recorder: recorder).randomPhotos(count: 2)
        #expect(photos.map(\.title) == ["Video Without Thumbnail"])
        #expect(photos[0].mediaType == .video)
        #expect(photos[0].imageURL(hd: false) == nil)
        #expect(recorder.log == ["skipped item 1 (2024-03-02): missing field 'url'"])
    }
}

@Test func aSlowServerTimesOut() async throws {
    try await FakeAPODServer.withRunning { server in
        await server.state.enqueueAPI(.slow(.seconds(30)))
        await #expect(throws: APODError.timedOut) {
            try await server.client(requestTimeout: .milliseconds(200)).randomPhotos(count: 1)
        }
    }
}

@Test func cancellingARequestInFlightEndsItAsCancelled() async throws {
    try await FakeAPODServer.withRunning { server in
        await server.state.enqueueAPI(.slow(.seconds(30)))
        let client = server.client()
        let request = Task { try await client.randomPhotos(count: 1) }
        await eventually { await !server.state.apiRequests.isEmpty }
        request.cancel()
        await #expect(throws: APODError.cancelled) { try await request.value }
    }
}

@Test func aServerThatIsNotThereIsUnreachable() async throws {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    let client = APODClient(configuration: APODConfiguration(
        baseURL: URL(string: "http://127.0.0.1:1/planetary/apod")!, environment: [:], log: { _ in }))
    await #expect {
        try await client.randomPhotos(count: 1)
    } throws: { error in
        if case .unreachable = error as? APODError { true } else { false }
    }
}

@Test func imagesDownloadAndANonImageIsRefused() async throws {
    try await FakeAPODServer.withRunning { server in
        let client = server.client()
        let photo = try #require(try await client.randomPhotos(count: 1).first)
        let standard = try await client.imageData(from: try #require(photo.imageURL(hd: false)))
        let hd = try await client.imageData(from: try #require(photo.imageURL(hd: true)))
        #expect(standard == FakeAPODCatalog.pngBytes)
        #expect(hd == FakeAPODCatalog.jpegBytes)

        await server.state.enqueueImages(.malformedJSON)
        await #expect {
            try await client.imageData(from: try #require(photo.imageURL(hd: false)))
        } throws: { error in
            if case .malformedResponse(let message) = error as? APODError { message.contains("text/html") } else { false }
        }
        await server.state.enqueueImages(.status(404, body: "Not Found"))
        await #expect(throws: APODError.api(status: 404, message: "Not Found")) {
            try await client.imageData(from: try #require(photo.imageURL(hd: false)))
        }
    }
}

@Test func theBaseURLsOwnQueryIsKeptAndTheKeyNotDuplicated() throws {
    let client = APODClient(configuration: APODConfiguration(
        baseURL: URL(string: "http://127.0.0.1:9/apod?api_key=old&lang=en")!, apiKey: "new", environment: [:]))
    let url = try client.endpoint(query: [URLQueryItem(name: "count", value: "3")])
    #expect(url.absoluteString == "http://127.0.0.1:9/apod?lang=en&count=3&api_key=new&thumbs=true")
}
