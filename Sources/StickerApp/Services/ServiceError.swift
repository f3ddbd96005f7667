/// Why a service (the Stickers, Colours or Space tab's) refused or could not do what was asked,
/// typed by what the asker can do about it, with the message written for the person using the
/// app. Fronts map the case, not the message: the web app turns each into one HTTP status
/// (`StickerWeb`'s `WebError.init(_:)`), a SwiftUI front into an alert.
nonisolated public enum ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value the service does not accept (an unknown format, a count out of range).
    case invalidRequest(String)
    /// No such thing (a photo, a colour scheme, a folder).
    case notFound(String)
    /// Not now: the state does not allow it yet (not processed, nothing chosen, a limit of the tab).
    case notReady(String)
    /// The thing itself cannot be used (an unreadable photo, a choice its subjects do not allow,
    /// more photos than the tab holds).
    case unusable(String)
    /// What was asked for could not be kept (a full disk, a read-only library); the cause in words.
    case notKept(String)
    /// A service the app depends on (the space photo API) failed.
    case upstreamFailed(String)

    public var message: String {
        switch self {
        case .invalidRequest(let message), .notFound(let message), .notReady(let message), .unusable(let message),
             .notKept(let message), .upstreamFailed(let message):
            message
        }
    }

    public var description: String { message }
}
