import Foundation
import ModelFetching
import NeuralNet

/// Why the cut-out model could not be loaded.
public enum CutOutModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// It cannot be had here (no python3/pip, no network, a missing `--model` file): the message
    /// says what to run.
    case unavailable(String)
    /// A file was found but is not a usable model.
    case unusable(String)

    public var description: String {
        switch self {
        case .unavailable(let m), .unusable(let m): m
        }
    }
}

/// Finds (fetching once if needed), verifies and loads the U²-Net-p cut-out model.
public enum CutOutModel {
    /// - Parameters:
    ///   - explicitPath: `--model PATH`, overriding `STICKERS_MODEL` and the cache.
    ///   - threads: tasks per convolution (2 for a lone photo on two cores, 1 inside a batch).
    ///   - log: receives one line when the model has to be fetched.
    public static func load(explicitPath: String? = nil, threads: Int = 1,
                            log: @Sendable (String) -> Void = { _ in }) async throws(CutOutModelError) -> U2NetSaliency {
        let store = ModelStore(explicitPath: explicitPath)
        let url: URL, bytes: Data
        do {
            // The bytes of the very file that was verified, read once.
            (url, bytes) = try await store.loadModel(log: log)
        } catch {
            switch error {
            case .unavailable(let m): throw .unavailable(m)
            case .corrupt(let m): throw .unusable(m)
            }
        }
        let network: NeuralNetwork
        do {
            network = try NeuralNetwork(onnx: bytes)
        } catch {
            throw .unusable("\(url.path): \(error.description)")
        }
        do {
            return try U2NetSaliency(network: network, threads: threads)
        } catch {
            throw .unusable("\(url.path) is \(error.description)")
        }
    }
}
