// libFuzzer target: the ONNX model reader (protobuf wire format) and the graph planner that
// builds an execution plan from it (topological order, operators' attributes, fusions).
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzONNX(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = try? NeuralNetwork(onnx: Data(bytes: bytes, count: count))
    return 0
}
