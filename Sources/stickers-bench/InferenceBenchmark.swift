import Foundation
import ModelFetching
import NeuralNet

/// U²-Net-p inference at 1×3×320×320 on 1 and 2 threads, against ONNX Runtime on the same input
/// (scripts/bench_onnxruntime.py, launched here when python3 has onnxruntime).
let inferenceSuite = BenchmarkSuite(name: "inference", summary: "U²-Net-p 320×320: our NeuralNet vs ONNX Runtime, 1 and 2 threads") {
    let modelURL = try await ModelStore().locateOrFetch { print("  \($0)") }
    let network = try NeuralNetwork(contentsOf: modelURL)
    _ = try await measure("model load (parse, prepare weights)", iterations: 5) {
        _ = try NeuralNetwork(contentsOf: modelURL)
    }
    _ = try await measure("model verify (SHA-256 of 4.5 MB)", iterations: 5) {
        try ModelStore().verify(modelURL)
    }
    let size = 320
    let input = [network.inputNames[0]: benchmarkInput(size: size)]
    var ours: [Int: Timing] = [:]
    var avx2Only: [Int: Timing] = [:]
    var portable: [Int: Timing] = [:]
    let best = InstructionSet.best.resolved
    for threads in [1, 2] {
        let plural = threads == 1 ? "" : "s"
        let session = InferenceSession(network: network, threads: threads)
        ours[threads] = try await measure("NeuralNet \(best), \(threads) thread\(plural)", iterations: 10) {
            _ = try await session.run(input)
        }
        // What a CPU without AVX-512 gets (the same binary takes the AVX2 kernel).
        if best == .avx512 || best == .avx512bf16 {
            let avx2 = InferenceSession(network: network, threads: threads, instructionSet: .avx2)
            avx2Only[threads] = try await measure("NeuralNet avx2, \(threads) thread\(plural)", iterations: 10) {
                _ = try await avx2.run(input)
            }
        }
        // What a CPU without AVX2 gets (x86-64's baseline SSE2, or NEON on ARM64).
        if best != .portable {
            let baseline = InferenceSession(network: network, threads: threads, instructionSet: .portable)
            portable[threads] = try await measure("NeuralNet portable, \(threads) thread\(plural)", iterations: 5) {
                _ = try await baseline.run(input)
            }
        }
    }
    // STICKERS_BENCH_NO_ORT=1 skips the comparison (quicker when tuning our kernels alone).
    let ort = ProcessInfo.processInfo.environment["STICKERS_BENCH_NO_ORT"] == "1"
        ? [:] : onnxRuntimeTimings(model: modelURL, size: size, threads: [1, 2])
    for threads in [1, 2] {
        guard let baseline = ort[threads], let candidate = ours[threads] else { continue }
        print("  \("ONNX Runtime, \(threads) thread\(threads == 1 ? "" : "s")".padding(toLength: 44, withPad: " ", startingAt: 0)) \(baseline)")
        printRatio("speed-up over ONNX Runtime, \(threads) thread\(threads == 1 ? "" : "s")", baseline: baseline, candidate: candidate)
        if let avx2 = avx2Only[threads] {
            printRatio("  … with the AVX2 kernel only", baseline: baseline, candidate: avx2)
        }
        if let portable = portable[threads] {
            printRatio("  … with the portable kernel", baseline: baseline, candidate: portable)
        }
    }
}

/// The input scripts/bench_onnxruntime.py builds (also the network suite's): a bright disc on a dark ground plus texture.
func benchmarkInput(size: Int) -> Tensor {
    var values = [Float](repeating: 0, count: 3 * size * size)
    let half = Double(size) / 2
    for c in 0..<3 {
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) - half, dy = Double(y) - half
                let inside = dx * dx + dy * dy < Double(size * size) / 16
                let texture = Double((c * 7 + y * 13 + x * 29) % 17) / 16 - 0.5
                values[(c * size + y) * size + x] = Float((inside ? 1.5 : -0.5) + 0.25 * texture + Double(c - 1) * 0.125)
            }
        }
    }
    var tensor = Tensor(shape: [1, 3, size, size])
    tensor.scalars = values
    return tensor
}

/// Runs the ONNX Runtime script and parses its `threads=N samples_ms=…` lines; empty (with a note)
/// when python3 or onnxruntime is missing.
func onnxRuntimeTimings(model: URL, size: Int, threads: [Int]) -> [Int: Timing] {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/bench_onnxruntime.py").standardizedFileURL
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, model.path, "--size", "\(size)", "--threads"] + threads.map(String.init)
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch {
        print("  ONNX Runtime: not measured (cannot run python3: \(error))")
        return [:]
    }
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        print("  ONNX Runtime: not measured (`pip install onnxruntime numpy` to compare)")
        return [:]
    }
    var timings: [Int: Timing] = [:]
    for line in output.split(separator: "\n") {
        let fields = line.split(separator: " ")
        guard fields.count == 2, let n = Int(fields[0].dropFirst("threads=".count)) else { continue }
        let samples = fields[1].dropFirst("samples_ms=".count).split(separator: ",").compactMap { Double($0) }
        timings[n] = Timing(samples: samples.map { Duration.microseconds($0 * 1000) })
    }
    return timings
}
