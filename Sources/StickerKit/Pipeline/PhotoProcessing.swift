import Foundation

/// Turns a photo's bytes into its sticker and colour scheme.
///
/// The seam between the model layer and the engine: the view model and its cache depend on this
/// protocol, so tests inject a fake that counts calls or blocks on demand.
public protocol PhotoProcessing: Sendable {
    /// Throws `PhotoProcessingError` for a photo that cannot be used, `CancellationError` when
    /// the calling task was cancelled.
    func process(data: Data) async throws -> ProcessedPhoto
}

/// Why a photo could not become a sticker. The message is meant for the person who chose it.
public enum PhotoProcessingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not an image we can read (corrupt, truncated, unsupported, too large).
    case unreadable(String)
    /// The photo has no clear main subject to cut out.
    case noClearSubject
    /// The engine itself failed (e.g. the cut-out model could not be loaded).
    case engineFailure(String)

    public var description: String {
        switch self {
        case .unreadable(let reason): "unreadable image: \(reason)"
        case .noClearSubject: "no clear subject to cut out"
        case .engineFailure(let reason): reason
        }
    }
}
