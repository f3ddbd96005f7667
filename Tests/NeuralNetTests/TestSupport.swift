import Foundation
import ModelFetching
import Testing
import TestSupport
@testable import NeuralNet

/// The U²-Net-p model, fetched the way the product fetches it (pip, once, into the user cache),
/// shared by all tests of this target.
actor TestModel {
    static let shared = TestModel()
    /// One load for all tests: a Task, so concurrent callers await the same fetch.
    private var loading: Task<Result<NeuralNetwork, any Error>, Never>?

    /// The network; when it cannot be had here, the test fails in CI and is skipped elsewhere
    /// (`NeededResource`), never passing silently.
    func network() async throws -> NeuralNetwork {
        if loading == nil {
            loading = Task {
                do {
                    let url = try await ModelStore().locateOrFetch { print("[NeuralNetTests] \($0)") }
                    return .success(try NeuralNetwork(contentsOf: url))
                } catch {
                    return .failure(error)
                }
            }
        }
        let result = await loading!.value  // set just above
        return try NeededResource.require(try? result.get(), "the cut-out model",
                                          reason: result.failureDescription)
    }
}

extension Result {
    /// The failure in words, or "" for a success.
    var failureDescription: String {
        if case .failure(let error) = self { "\(error)" } else { "" }
    }
}

enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A float32 little-endian fixture written by scripts/make_reference.py.
    static func floats(_ name: String) throws -> [Float] {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        return data.withUnsafeBytes { raw in
            (0..<(data.count / 4)).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
        }
    }
}

/// The input scripts/make_reference.py feeds ONNX Runtime: a bright disc on a dark ground plus a
/// small integer texture, computed in Double and rounded once to Float exactly as NumPy does.
func referenceInput(size: Int) -> Tensor {
    var values = [Float](repeating: 0, count: 3 * size * size)
    let half = Double(size) / 2
    for c in 0..<3 {
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) - half, dy = Double(y) - half
                let inside = dx * dx + dy * dy < (Double(size) / 4) * (Double(size) / 4)
                let texture = Double((c * 7 + y * 13 + x * 29) % 17) / 16.0 - 0.5
                let v = (inside ? 1.5 : -0.5) + 0.25 * texture + Double(c - 1) * 0.125
                values[(c * size + y) * size + x] = Float(v)
            }
        }
    }
    return Tensor(shape: [1, 3, size, size], repeating: 0).replacing(values)
}

extension Tensor {
    func replacing(_ values: [Float]) -> Tensor {
        var copy = self
        copy.scalars = values
        return copy
    }
}

func maxAbsDifference(_ a: [Float], _ b: [Float]) -> Float {
    guard a.count == b.count else { return .infinity }
    return zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
}
