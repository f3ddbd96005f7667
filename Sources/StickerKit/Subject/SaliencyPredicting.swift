import Raster

/// Predicts how salient each part of a photo is: the seam between the cut-out pipeline and the
/// neural network, so the pipeline can be tested with synthetic saliency.
public protocol SaliencyPredicting: Sendable {
    /// Raw saliency in 0…1 at the predictor's own resolution (U²-Net-p: 320×320, covering the
    /// whole photo, aspect ratio ignored), exactly as the network returns it: no min-max stretch,
    /// so "no clear subject" stays visible as uniformly low values.
    ///
    /// - Parameter image: the photo, already oriented, usually reduced to about a megapixel.
    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane

    /// A session for several looks at one photo by one task (a first look, then a closer or an
    /// upside-down one). A predictor may keep state between them: U²-Net-p keeps one inference
    /// session, whose recycled buffers make the second look as fast as a warm run.
    func makeSession() -> any SaliencySession

    /// A session whose looks each run on at most `threads` tasks (a clip's looks run one a core,
    /// several frames at once: `LookLanes`).
    func makeSession(threads: Int) -> any SaliencySession
}

/// Successive looks at one photo, made and used by one task (not Sendable).
public protocol SaliencySession: AnyObject {
    /// As `SaliencyPredicting.saliency(of:)`.
    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane

    /// Where the salient regions are, at the same resolution as `saliency(of:)` but possibly from a
    /// coarser, cheaper signal: good enough to tell which regions stand out, not to place their edges.
    func coarseSaliency(of image: Image) async throws(SubjectExtractionError) -> Plane
}

extension SaliencySession {
    /// By default a coarse look is a full one.
    public func coarseSaliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        try await saliency(of: image)
    }
}

extension SaliencyPredicting {
    /// By default each look is an independent call.
    public func makeSession() -> any SaliencySession { IndependentLooks(predictor: self) }

    /// By default the predictor's own spread.
    public func makeSession(threads: Int) -> any SaliencySession { makeSession() }
}

/// A session whose looks are independent calls of the predictor.
private final class IndependentLooks: SaliencySession {
    let predictor: any SaliencyPredicting
    init(predictor: any SaliencyPredicting) { self.predictor = predictor }
    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        try await predictor.saliency(of: image)
    }
}

/// Why no sticker could be cut from a photo.
public enum SubjectExtractionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The photo has no clear main subject (a landscape, a texture, a blank wall…).
    case noClearSubject
    /// The image has no pixels.
    case emptyImage
    /// The saliency model could not be run.
    case modelFailed(String)
    /// The chosen subjects (`SubjectExtractor.choice`) are not in the photo.
    case noSuchSubject(SubjectChoiceError)

    public var description: String {
        switch self {
        case .noClearSubject: "no clear subject in the photo: nothing stands out from the background"
        case .emptyImage: "the image is empty"
        case .modelFailed(let reason): "the cut-out model failed: \(reason)"
        case .noSuchSubject(let error): "\(error)"
        }
    }
}
