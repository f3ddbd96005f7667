import AtomicFiles
import ArgumentParser
import BoundedConcurrency
import ErrorReasons
import Foundation
import SpacePhotos
import StickerApp
import StickerKit

/// `stickers catalog [--count N | --date D | --start D [--end D]] [--api URL] [--api-key KEY]
/// [--save DIR] [--hd] [--thumbs] [--json]`
struct CatalogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "List space photos from NASA's Astronomy Picture of the Day (random, a day or a range), and save them.",
        discussion: """
            Any server speaking the APOD protocol works with --api (default \
            \(APODConfiguration.defaultBaseURL.absoluteString)). The key is --api-key, else \
            $\(APODConfiguration.apiKeyVariable), else \(APODConfiguration.demoKey) (about 30 requests an hour).
            Videos are listed (--thumbs adds their thumbnail link); --save stores their thumbnail \
            when the API has one.
            Days are yyyy-MM-dd from \(Self.firstDayText) to today (UTC). A range \
            spans at most \(APODClient.maxRangeDays) days; when the server fails it, each day is asked \
            for alone, and days that still fail are skipped and named on standard error (and in \
            "failed_days" with --json) while the others are listed.
            Exit status: 64 bad arguments, 65 no usable photo in the answer, 69 the server refused \
            (rate limit, bad key, server errors), 74 no connection or no answer in time, or a file \
            could not be saved, 130 interrupted (no partial file is left).
            """
    )

    /// `APODDay.firstDay` as text, written out: ArgumentParser builds every command's configuration
    /// in every `stickers` process, and formatting the date there set up a Gregorian calendar, the
    /// time zone (/etc/localtime) and ICU: 3.2 M instructions of each `sticker` or `make` process.
    /// (A test checks it against `APODDay`.)
    static let firstDayText = "1995-06-16"

    @Option(help: "How many random photos, 1…\(APODConfiguration.maxCount) (default 10).")
    var count: Int?

    @Option(help: ArgumentHelp("The photo of this day.", valueName: "yyyy-MM-dd"))
    var date: DayArgument?

    @Option(help: ArgumentHelp("The photos from this day…", valueName: "yyyy-MM-dd"))
    var start: DayArgument?

    @Option(help: ArgumentHelp("…through this day (with --start; default today).", valueName: "yyyy-MM-dd"))
    var end: DayArgument?

    @Flag(help: "List each video day's thumbnail link too.")
    var thumbs = false

    @Option(help: ArgumentHelp("Base URL of an APOD-compatible API (http or https).", valueName: "URL"))
    var api: HTTPURLArgument?

    @Option(help: "API key (default: $\(APODConfiguration.apiKeyVariable), else \(APODConfiguration.demoKey)).")
    var apiKey: String?

    @Option(help: ArgumentHelp("Save each photo's image into DIR.", valueName: "DIR"))
    var save: String?

    @Flag(help: "With --save, save the high-resolution images where there are some.")
    var hd = false

    @Flag(help: "Print JSON: {\"photos\":[{APOD fields…, \"saved\":PATH}], \"failed_days\":[{\"date\":D,\"error\":…}]}.")
    var json = false

    func validate() throws {
        if let count, !(1...APODConfiguration.maxCount).contains(count) {
            throw ValidationError("--count must be between 1 and \(APODConfiguration.maxCount), not \(count)")
        }
        _ = try selection()
    }

    /// What to list, from --count, --date or --start/--end (a usage error names what is wrong).
    func selection(today: Date = Date()) throws -> CatalogModel.Selection {
        guard [count != nil, date != nil, start != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("choose one of --count, --date and --start")
        }
        if end != nil, start == nil { throw ValidationError("--end needs --start") }
        if let date { return .days([try Self.day(date, option: "--date", today: today)]) }
        if let start {
            let first = try Self.day(start, option: "--start", today: today)
            let last = try end.map { try Self.day($0, option: "--end", today: today) } ?? Self.startOfDay(today)
            guard first <= last else { throw ValidationError("--end (\(APODDay.string(from: last))) is before --start (\(start.text))") }
            let days = Int(last.timeIntervalSince(first) / 86_400) + 1
            guard days <= APODClient.maxRangeDays else {
                throw ValidationError("a range spans at most \(APODClient.maxRangeDays) days, not \(days)")
            }
            return .range(start: first, end: last)
        }
        return .random(count: count ?? 10)
    }

    /// The day, if it lies between APOD's first day and today (UTC), else a usage error naming the range.
    static func day(_ day: DayArgument, option: String, today: Date) throws -> Date {
        let allowed = "days are yyyy-MM-dd from \(APODDay.string(from: APODDay.firstDay)) to \(APODDay.string(from: today)) (today, UTC)"
        guard day.date >= APODDay.firstDay else { throw ValidationError("\(option) \(day.text) is before APOD began: \(allowed)") }
        guard day.date <= startOfDay(today) else { throw ValidationError("\(option) \(day.text) is in the future: \(allowed)") }
        return day.date
    }

    static func startOfDay(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
    }

    @MainActor func run() async throws {
        let baseURL = api?.url ?? APODConfiguration.defaultBaseURL
        let client = APODClient(configuration: APODConfiguration(
            baseURL: baseURL, apiKey: apiKey,
            log: { FileHandle.standardError.write(Data("stickers: warning: \($0)\n".utf8)) }))
        let folder = URL(fileURLWithPath: save ?? FileManager.default.currentDirectoryPath)
        if let save {
            // A folder that cannot be had is known before anything is downloaded, with its cause
            // ("read-only file system", "permission denied", "a part of the path is not a folder").
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw fail("cannot save into \(save): \(ErrorReason.of(error))", ExitStatus.ioError)
            }
            if let refusal = AtomicFileWriter.writeRefusal(folder) {
                throw fail("cannot save into \(save): \(ErrorReason.of(refusal))", ExitStatus.ioError)
            }
        }
        let model = CatalogModel(client: client, libraryFolder: folder, selection: try selection())

        // Ctrl-C cancels the work: downloads stop and no partial file is left.
        let outcomes = SaveOutcomes()
        let saving = save != nil
        let work = Task {
            await model.refresh()
            guard saving, model.error == nil, !Task.isCancelled else { return }
            outcomes.byID = await saveAll(model)
        }
        let interrupts = await InterruptHandler(cancelling: work)
        await work.value
        interrupts.stop()
        if work.isCancelled {
            throw fail("interrupted: no partial file left", ExitStatus.interrupted)
        }

        if let error = model.error {
            throw fail(Self.message(for: error, baseURL: baseURL), Self.exitStatus(for: error))
        }
        guard !model.items.isEmpty else {
            throw fail("the server's answer held no usable photo", ExitStatus.dataError)
        }
        for failed in model.failedDays {
            printError("skipped \(failed.day): \(Self.message(for: failed.error, baseURL: baseURL))")
        }
        let report = model.items.map { CatalogEntry(photo: $0, outcome: outcomes.byID[$0.id], thumbs: thumbs) }
        if json {
            FileHandle.standardOutput.write(try CatalogEntry.json(report, failedDays: model.failedDays.map {
                FailedDayEntry(date: $0.day, error: Self.message(for: $0.error, baseURL: baseURL))
            }))
        } else {
            FileHandle.standardOutput.write(Data(report.map(\.text).joined().utf8))
        }
        let failures = report.filter { if case .failed = $0.outcome { true } else { false } }
        if !failures.isEmpty {
            throw fail("\(failures.count) of \(report.count) photos could not be saved", ExitStatus.ioError)
        }
    }

    /// Saves every listed photo, a few downloads at a time.
    @MainActor private func saveAll(_ model: CatalogModel) async -> [SpacePhoto.ID: SaveOutcome] {
        let hd = hd
        var outcomes: [SpacePhoto.ID: SaveOutcome] = [:]
        await forEachConcurrently(model.items, limit: 4, { photo in await Self.save(photo, hd: hd, with: model) }) {
            _, saved in
            let (id, outcome) = saved
            outcomes[id] = outcome
            if case .failed(let reason) = outcome { printError("cannot save \(id): \(reason)") }
        }
        return outcomes
    }

    @MainActor private static func save(
        _ photo: SpacePhoto, hd: Bool, with model: CatalogModel
    ) async -> (SpacePhoto.ID, SaveOutcome) {
        do throws(CatalogSaveError) {
            return (photo.id, .saved(try await model.save(photo, hd: hd)))
        } catch .notSavable(let reason) {
            return (photo.id, .notSaved(reason))
        } catch {
            return (photo.id, .failed(error.description))
        }
    }

    @MainActor static func exitStatus(for error: APODError) -> ExitCode {
        switch error {
        case .invalidRequest: ExitStatus.usage
        case .malformedResponse: ExitStatus.dataError
        case .api, .rateLimited, .server: ExitStatus.unavailable
        case .timedOut, .unreachable, .transport, .cancelled: ExitStatus.ioError
        }
    }

    @MainActor static func message(for error: APODError, baseURL: URL) -> String {
        let server = baseURL.host.map { host in baseURL.port.map { "\(host):\($0)" } ?? host } ?? baseURL.absoluteString
        switch error {
        case .unreachable(let reason):
            return "cannot reach \(server): \(reason) (no network? --api points at another server)"
        case .timedOut:
            return "\(server) did not answer in time (no network? --api points at another server)"
        case .rateLimited(let retryAfter):
            let wait = retryAfter.map { " (it asks to wait \($0.components.seconds) s)" } ?? ""
            return "\(server) refuses more requests for now\(wait); a personal key from https://api.nasa.gov "
                + "raises the limit: --api-key KEY or $\(APODConfiguration.apiKeyVariable)"
        default:
            return "\(server): \(error)"
        }
    }
}

/// What --save did, per photo; filled in by the task doing the work.
final class SaveOutcomes {
    var byID: [SpacePhoto.ID: SaveOutcome] = [:]
}

/// What happened to a photo with --save.
enum SaveOutcome {
    case saved(URL)
    case notSaved(String)
    case failed(String)
}

/// One line of the report: the photo and, with --save, what became of it.
struct CatalogEntry: Encodable {
    let photo: SpacePhoto
    let outcome: SaveOutcome?
    /// Whether the text lists a video's thumbnail link (JSON always has `thumbnail_url`).
    var thumbs = false

    private enum ExtraKeys: String, CodingKey {
        case saved, notSaved = "not_saved", saveError = "save_error"
    }

    /// The photo in the API's own field names, plus `saved`, `not_saved` or `save_error`.
    func encode(to encoder: any Encoder) throws {
        try photo.encode(to: encoder)
        var extra = encoder.container(keyedBy: ExtraKeys.self)
        switch outcome {
        case .saved(let url): try extra.encode(url.path, forKey: .saved)
        case .notSaved(let reason): try extra.encode(reason, forKey: .notSaved)
        case .failed(let reason): try extra.encode(reason, forKey: .saveError)
        case nil: break
        }
    }

    /// `{"photos":[…]}`, plus `"failed_days":[{"date":…,"error":…}]` when a range skipped days.
    static func json(_ entries: [CatalogEntry], failedDays: [FailedDayEntry] = []) throws -> Data {
        struct Report: Encodable {
            let photos: [CatalogEntry]
            let failedDays: [FailedDayEntry]?
            enum CodingKeys: String, CodingKey { case photos, failedDays = "failed_days" }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Report(photos: entries, failedDays: failedDays.isEmpty ? nil : failedDays)) + Data("\n".utf8)
    }

    /// `2024-01-02  image  Title  © Credit`, the link, and what --save did.
    var text: String {
        var lines = ["\(photo.day)  \(photo.mediaType.rawValue)  \(photo.title)" + (photo.copyright.map { "  © \($0)" } ?? "")]
        lines.append("    \(photo.url.absoluteString)")
        if thumbs, photo.mediaType == .video {
            lines.append("    thumbnail " + (photo.thumbnailURL?.absoluteString ?? "none (the API sent no still image)"))
        }
        switch outcome {
        case .saved(let url): lines.append("    saved \(url.path)")
        case .notSaved(let reason): lines.append("    not saved: \(reason)")
        case .failed(let reason): lines.append("    NOT SAVED: \(reason)")
        case nil: break
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A day a range skipped, as `--json` reports it.
struct FailedDayEntry: Encodable {
    let date: String
    let error: String
}
