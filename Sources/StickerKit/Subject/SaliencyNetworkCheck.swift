import NeuralNet

/// What a file must be to serve as the cut-out model: a saliency network that takes one RGB photo
/// (1×3×H×W) and whose first output is one saliency map of the photo's size (1×1×H×W).
///
/// Checked when the model loads, from the shapes the file declares, so a wrong model is refused
/// before any photo is touched: an identity network would otherwise "cut out" the photo's red
/// channel, and a 1×1 output would call every photo "no clear subject". The executor itself has
/// already refused operators it does not run. Dimensions a file leaves symbolic are checked on
/// the first run instead (`U2NetSaliency.saliency(of:in:output:)`).
enum SaliencyNetworkCheck {
    /// The input side to feed the network: its declared one, else `defaultSide`.
    static func inputSide(of network: NeuralNetwork, defaultSide: Int) throws(CutOutModelError) -> Int {
        guard let input = network.inputNames.first else { throw unusable("it declares no input") }
        guard network.inputNames.count == 1 else {
            throw unusable("it takes \(network.inputNames.count) inputs (\(network.inputNames.joined(separator: ", "))), not one photo")
        }
        guard let output = network.outputNames.first else { throw unusable("it declares no output") }
        let inputShape = network.declaredInputShapes[input] ?? []
        let outputShape = network.declaredOutputShapes[output] ?? []
        guard inputShape.count == 4, inputShape[0] ?? 1 == 1, inputShape[1] ?? 3 == 3 else {
            throw unusable("its input '\(input)' has shape \(describe(inputShape)), not 1×3×H×W (one RGB photo)")
        }
        let height = inputShape[2], width = inputShape[3]
        if let height, let width, height != width || height < 32 {
            throw unusable("its input is \(width)×\(height) pixels; a saliency network takes a square photo of at least 32 px")
        }
        // An output whose shape the file does not declare is checked on the first run.
        if !outputShape.isEmpty {
            guard outputShape.count == 4, outputShape[0] ?? 1 == 1, outputShape[1] ?? 1 == 1 else {
                throw unusable("its first output '\(output)' has shape \(describe(outputShape)), not 1×1×H×W (one saliency map)")
            }
            for (axis, (inSize, outSize)) in zip(["height", "width"], zip([height, width], [outputShape[2], outputShape[3]])) {
                if let inSize, let outSize, inSize != outSize {
                    throw unusable("its first output's \(axis) is \(outSize), not the input's \(inSize): not a saliency map of the photo")
                }
            }
        }
        return height ?? defaultSide
    }

    private static func unusable(_ what: String) -> CutOutModelError {
        .unusable("not a U²-Net-style saliency network: \(what)")
    }

    static func describe(_ shape: [Int?]) -> String {
        shape.isEmpty ? "(undeclared)" : shape.map { $0.map(String.init) ?? "?" }.joined(separator: "×")
    }
}
