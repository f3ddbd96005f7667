import NeuralNet
import Raster

/// Saliency from U²-Net-p (Qin et al. 2020) run by our own ONNX executor, prepared exactly as the
/// network was trained and as rembg feeds it: the photo squeezed to 320×320 (aspect ratio ignored),
/// divided by its maximum, then ImageNet mean/std per channel. Returns the first (fused) output.
public struct U2NetSaliency: SaliencyPredicting {
    public let network: NeuralNetwork
    /// How many tasks each convolution is spread over (2 for a lone photo on two cores).
    public var threads: Int
    /// The network's input side.
    public var inputSide = 320
    /// The output a coarse look reads: U²-Net's outputs are the fused saliency, then the side
    /// outputs of decoder stages at 320, 160, 80, 40, 20 and 10 px, each resized to 320. The 80 px
    /// one (index 3) needs a third of the network's work: the two full-resolution decoder stages
    /// are skipped. Measured as the upside-down look's signal on the dev set and 30 other
    /// composites, it changes no case's IoU by more than 0.01 and lowers the mean alpha error.
    public var coarseOutput = 3

    /// The predictor over `network`, which must have the shapes of a saliency network (see
    /// `SaliencyNetworkCheck`); its declared input side is used.
    public init(network: NeuralNetwork, threads: Int = 1) throws(CutOutModelError) {
        self.network = network
        self.threads = threads
        self.inputSide = try SaliencyNetworkCheck.inputSide(of: network, defaultSide: inputSide)
    }

    static let mean: [Float] = [0.485, 0.456, 0.406]
    static let standardDeviation: [Float] = [0.229, 0.224, 0.225]

    /// The network's input tensor for `image`: 1×3×side×side, resampled in `threads` row bands (it
    /// sits before each look, with the other core idle: 800×600 → 320 px 5.5 → 3.5 ms).
    func inputTensor(for image: Image) async -> Tensor {
        let side = inputSide
        let planes = await ColorPlanes.resampled(image, width: side, height: side, bands: max(1, threads))
        let peak = max(1e-6, max(planes.red.max() ?? 0, planes.green.max() ?? 0, planes.blue.max() ?? 0))
        var scalars = [Float](repeating: 0, count: 3 * side * side)
        for (c, plane) in [planes.red, planes.green, planes.blue].enumerated() {
            let m = Self.mean[c], s = 1 / Self.standardDeviation[c]
            let base = c * side * side
            for i in 0..<(side * side) { scalars[base + i] = (plane[i] / peak - m) * s }
        }
        return Tensor(shape: [1, 3, side, side], repeating: 0).with(scalars: scalars)
    }

    public func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        try await saliency(of: image, in: InferenceSession(network: network, threads: threads))
    }

    /// Looks at one photo that share one inference session (its buffers stay warm between them).
    public func makeSession() -> any SaliencySession {
        U2NetLooks(predictor: self, session: InferenceSession(network: network, threads: threads))
    }

    public func makeSession(threads: Int) -> any SaliencySession {
        var predictor = self
        predictor.threads = threads
        return predictor.makeSession()
    }

    /// The saliency of `image` from output `output` of the network (0: the fused saliency).
    func saliency(of image: Image, in session: InferenceSession, output: Int = 0) async throws(SubjectExtractionError) -> Plane {
        guard image.width > 0 && image.height > 0 else { throw .emptyImage }
        guard let inputName = network.inputNames.first,
              let outputName = network.outputNames.dropFirst(max(0, output)).first ?? network.outputNames.first else {
            throw .modelFailed("the network declares no input or output")
        }
        let outputs: [String: Tensor]
        do {
            let input = await inputTensor(for: image)
            outputs = try await session.run([inputName: input], outputs: [outputName])
        } catch {
            throw .modelFailed(error.description)
        }
        // The declared shapes were checked at load; a file that leaves them symbolic is held to
        // the same rule here: one map, 1×1×H×W, of the input's size.
        guard let output = outputs[outputName], output.shape.count == 4, output.shape[0] == 1, output.shape[1] == 1,
              output.shape[2] == inputSide, output.shape[3] == inputSide else {
            let shape = outputs[outputName].map { SaliencyNetworkCheck.describe($0.shape) } ?? "none"
            throw .modelFailed("not a saliency network: its output '\(outputName)' has shape \(shape), not 1×1×\(inputSide)×\(inputSide)")
        }
        let height = output.shape[2], width = output.shape[3]
        return Plane(width: width, height: height, values: Array(output.scalars.prefix(width * height)))
    }
}

/// U²-Net-p's looks at one photo, through one inference session.
private final class U2NetLooks: SaliencySession {
    let predictor: U2NetSaliency
    let session: InferenceSession
    init(predictor: U2NetSaliency, session: InferenceSession) {
        self.predictor = predictor
        self.session = session
    }
    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        try await predictor.saliency(of: image, in: session)
    }
    /// A side output alone: once a session of the network has seen the input size, the layers only
    /// the finer outputs need are skipped (the side outputs are resized to a finer tensor's size,
    /// which the network's sessions then know: `ShapeMemo`).
    func coarseSaliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        try await predictor.saliency(of: image, in: session, output: predictor.coarseOutput)
    }
}

private extension Tensor {
    /// The same shape holding `scalars` (whose count matches by construction).
    func with(scalars: [Float]) -> Tensor {
        var copy = self
        copy.scalars = scalars
        return copy
    }
}
