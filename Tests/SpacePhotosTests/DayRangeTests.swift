import APODTestServer
import Foundation
import SpacePhotos
import Testing

private func day(_ text: String) throws -> Date { try #require(APODDay.date(from: text)) }

@Suite struct DayRangeTests {
    @Test("a range is one request when the server answers it")
    func oneRequest() async throws {
        try await FakeAPODServer.withRunning { server in
            let result = try await server.client().photos(from: try day("2024-02-27"), through: try day("2024-03-02"))
            #expect(result.photos.map(\.day) == ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01", "2024-03-02"])
            #expect(result.failedDays.isEmpty)
            let requests = await server.state.apiRequests
            #expect(requests.count == 1)
            #expect(requests.first?.query["start_date"] == "2024-02-27")
            #expect(requests.first?.query["end_date"] == "2024-03-02")
        }
    }

    @Test("a range the server fails is asked day by day; a day still failing is reported, the rest listed")
    func fallsBackDayByDay() async throws {
        try await FakeAPODServer.withRunning { server in
            await server.state.setFailingDays(["2024-01-03"])
            let recorder = Recorder()
            let result = try await server.client(recorder: recorder, maxAttempts: 2)
                .photos(from: try day("2024-01-01"), through: try day("2024-01-05"))
            #expect(result.photos.map(\.day) == ["2024-01-01", "2024-01-02", "2024-01-04", "2024-01-05"])
            #expect(result.failedDays == [FailedDay(day: "2024-01-03", error: .server(status: 500))])
            let asked = await server.state.apiRequests.compactMap { $0.query["date"] }
            #expect(Set(asked) == ["2024-01-01", "2024-01-02", "2024-01-03", "2024-01-04", "2024-01-05"])
            #expect(recorder.log.contains { $0.contains("day by day") })
        }
    }

    @Test("when every day of a range fails, the call fails with the server's error")
    func everyDayFailing() async throws {
        try await FakeAPODServer.withRunning { server in
            await server.state.setFailingDays(["2024-01-01", "2024-01-02"])
            await #expect(throws: APODError.server(status: 500)) {
                try await server.client(maxAttempts: 1).photos(from: try day("2024-01-01"), through: try day("2024-01-02"))
            }
        }
    }

    @Test("a rate-limited range is not retried day by day")
    func rateLimitedRange() async throws {
        try await FakeAPODServer.withRunning { server in
            await server.state.enqueueAPI(.rateLimited(retryAfter: "3600"))
            await #expect(throws: APODError.rateLimited(retryAfter: .seconds(3600))) {
                try await server.client().photos(from: try day("2024-01-01"), through: try day("2024-01-03"))
            }
            #expect(await server.state.apiRequests.count == 1)
        }
    }

    @Test("an empty or too long range is refused before anything is sent")
    func invalidRanges() async throws {
        try await FakeAPODServer.withRunning { server in
            await #expect(throws: APODError.self) {
                try await server.client().photos(from: try day("2024-01-05"), through: try day("2024-01-01"))
            }
            await #expect(throws: APODError.self) {
                try await server.client().photos(from: try day("2020-01-01"), through: try day("2024-01-01"))
            }
            #expect(await server.state.apiRequests.isEmpty)
        }
    }
}
