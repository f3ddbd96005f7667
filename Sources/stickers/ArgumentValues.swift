import ArgumentParser
import Foundation
import SpacePhotos

/// An http(s) URL with a host, as an option's value (`catalog --api`, `serve --catalog-api`): the
/// one check of an API address; anything else is a usage error (64) naming the option.
struct HTTPURLArgument: ExpressibleByArgument, Sendable {
    let url: URL

    init?(argument: String) {
        guard let url = URL(string: argument), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host?.isEmpty == false else { return nil }
        self.url = url
    }
}

/// A day written yyyy-MM-dd (UTC), as an option's value (`catalog --date/--start/--end`). Whether
/// it lies within APOD's days is checked against today's date by the command.
struct DayArgument: ExpressibleByArgument, Sendable {
    let date: Date
    /// As it was written, for messages.
    let text: String

    init?(argument: String) {
        guard let date = APODDay.date(from: argument) else { return nil }
        self.date = date
        text = argument
    }
}
