import BoundedConcurrency
import Foundation

/// A day of a range that could not be fetched, and why.
public struct FailedDay: Sendable, Equatable {
    /// `yyyy-MM-dd`.
    public let day: String
    public let error: APODError

    public init(day: String, error: APODError) {
        self.day = day
        self.error = error
    }
}

/// The photos of a range of days, and the days the server kept failing (skipped).
public struct DayRangePhotos: Sendable, Equatable {
    public var photos: [SpacePhoto]
    public var failedDays: [FailedDay]

    public init(photos: [SpacePhoto], failedDays: [FailedDay] = []) {
        self.photos = photos
        self.failedDays = failedDays
    }
}

extension APODClient {
    /// The most days one range may span: a failed range is fetched again day by day, one request
    /// a day, and a demo key allows about 30 requests an hour.
    public static let maxRangeDays = 100

    /// The photos of the UTC days `start` through `end`, oldest first.
    ///
    /// One request (`start_date`/`end_date`). The real API answers 500 for a whole range when a
    /// single day of it is broken, so when the range fails that way (server errors, an answer it
    /// cannot parse, no answer in time) each day is asked for alone: days that still fail are
    /// listed in `failedDays` and the rest returned. Errors that day-by-day requests cannot help
    /// (rate limit, bad key, no network) fail the call, as does every day failing.
    @concurrent
    public func photos(from start: Date, through end: Date) async throws(APODError) -> DayRangePhotos {
        let days = try Self.days(from: start, through: end)
        let query = [URLQueryItem(name: "start_date", value: days[0]), URLQueryItem(name: "end_date", value: days[days.count - 1])]
        do {
            let photos = try await page(query: query).photos
            return DayRangePhotos(photos: photos.sorted { $0.date < $1.date })
        } catch let error where Self.isWorthRetryingByDay(error) {
            configuration.log("the server failed the range \(days[0])…\(days[days.count - 1]) (\(error)); asking day by day")
        }
        let result = try await photosEachDay(days)
        if result.photos.isEmpty, let first = result.failedDays.first { throw first.error }
        return result
    }

    /// `yyyy-MM-dd` of every day from `start` through `end`; throws for an empty or too long range.
    static func days(from start: Date, through end: Date) throws(APODError) -> [String] {
        let first = Int((start.timeIntervalSince1970 / 86_400).rounded(.down))
        let last = Int((end.timeIntervalSince1970 / 86_400).rounded(.down))
        guard last >= first else {
            throw .invalidRequest("the range ends (\(APODDay.string(from: end))) before it starts (\(APODDay.string(from: start)))")
        }
        guard last - first < maxRangeDays else {
            throw .invalidRequest("a range spans at most \(maxRangeDays) days, not \(last - first + 1)")
        }
        return (first...last).map { APODDay.string(from: Date(timeIntervalSince1970: TimeInterval($0) * 86_400)) }
    }

    static func isWorthRetryingByDay(_ error: APODError) -> Bool {
        switch error {
        case .server, .malformedResponse, .timedOut: true
        default: false
        }
    }

    /// Each day alone, `maxConcurrentRequests` at a time; a day's failure is recorded, not thrown,
    /// unless it is one no other day can escape (cancelled, rate limited, bad key, no network).
    func photosEachDay(_ days: [String]) async throws(APODError) -> DayRangePhotos {
        let limit = configuration.maxConcurrentRequests
        let results = await concurrentMap(days, limit: limit) { day -> Result<[SpacePhoto], APODError> in
            do throws(APODError) {
                return .success(try await self.page(query: [URLQueryItem(name: "date", value: day)]).photos)
            } catch {
                return .failure(error)
            }
        }
        let outcomes = Dictionary(zip(days, results), uniquingKeysWith: { first, _ in first })
        var range = DayRangePhotos(photos: [])
        for day in days {
            switch outcomes[day] {
            case .success(let photos): range.photos += photos
            case .failure(let error) where Self.isWorthRetryingByDay(error) || Self.isDayProblem(error):
                range.failedDays.append(FailedDay(day: day, error: error))
            case .failure(let error): throw error
            case nil: throw .cancelled
            }
        }
        return range
    }

    /// A refusal about the day itself (the API's 400/404 for a day it has no photo for).
    static func isDayProblem(_ error: APODError) -> Bool {
        if case .api(let status, _) = error { status == 400 || status == 404 } else { false }
    }
}
