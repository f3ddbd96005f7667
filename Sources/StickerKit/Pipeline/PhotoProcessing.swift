import Foundation
import Raster

/// Turns a photo's bytes into its sticker and colour scheme.
///
/// The seam between the model layer and the engine: the view model and its cache depend on this
/// protocol, so tests inject a fake that counts calls or blocks on demand.
public protocol PhotoProcessing: Sendable {
    /// Throws `PhotoProcessingError` for a photo that cannot be used, `CancellationError` when
    /// the calling task was cancelled.
    func process(data: Data) async throws -> ProcessedPhoto

    /// Names everything besides the photo's bytes that changes the output (engine and model
    /// version, colour count, sizes, style): results are cached under the photo's digest plus
    /// this, so changing any of them never serves a stale sticker.
    var outputIdentity: String { get }
}

extension PhotoProcessing {
    /// A processor that does not say what shapes its output is known by its type alone.
    public var outputIdentity: String { String(reflecting: Self.self) }
}

/// Why a photo could not become a sticker, typed: the photo's own problem (unreadable, no
/// subject) or the engine's (the model cannot run), which front ends report differently (`make`
/// exits 65 for the first, 69 for the second). `description` is meant for the person.
public enum PhotoProcessingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not an image we can read (corrupt, truncated, unsupported, too large): the decoder's reason.
    case unreadable(ImageCodecError)
    /// The photo has no clear main subject to cut out.
    case noClearSubject
    /// The engine itself failed (the cut-out model cannot run): not the photo's fault.
    case engineFailure(String)

    /// Whether the photo is the problem (another photo may work), rather than the engine.
    public var isPhotoProblem: Bool {
        if case .engineFailure = self { false } else { true }
    }

    public var description: String {
        switch self {
        case .unreadable(let error): "unreadable image: \(error.reason)"
        case .noClearSubject: "no clear subject to cut out"
        case .engineFailure(let reason): reason
        }
    }
}
