import Foundation
import ModelFetching
import NeuralNet

/// The network stage alone: U²-Net-p at 1×3×320×320 (the saliency input) run again and again,
/// each run's process CPU time (all threads) and wall time. CPU time is the figure to compare
/// builds by on a shared machine (another process's load stretches wall time but hardly the CPU
/// time our threads spend: run two builds alternately with scripts/bench-ab.sh and compare the
/// medians); wall time on 2 threads is the acceptance figure of issue 37, printed next to ONNX
/// Runtime's (FP32, same input, launched at the end of the same run; STICKERS_BENCH_NO_ORT=1 skips it).
/// Every kernel set the CPU has: the default (`.best`) first, then AVX-512 in float, then on a CPU
/// with AVX-512 BF16 its products in every layer (which misses the quality gate; for comparison),
/// then AVX2. The default on such a CPU is BF16 in the tolerant layers only where its products pay
/// (`ProductsCalibration`, printed), float elsewhere.
let networkSuite = BenchmarkSuite(name: "network", summary: "U²-Net-p 320×320: CPU and wall time per inference, per kernel set, vs ONNX Runtime") {
    let modelURL = try await ModelStore().locateOrFetch { print("  \($0)") }
    let network = try NeuralNetwork(contentsOf: modelURL)
    let input = [network.inputNames[0]: benchmarkInput(size: 320)]
    var runs: [(label: String, network: NeuralNetwork, set: InstructionSet)] = []
    func describe(_ set: InstructionSet, _ network: NeuralNetwork) -> String {
        set == .avx512bf16 ? "avx512bf16 (BF16 in \(network.bf16Layers.count) layers)" : "\(set)"
    }
    for set in [InstructionSet.best, .avx512] where !runs.contains(where: { $0.set == set.resolved }) {
        runs.append((describe(set.resolved, network), network, set.resolved))
    }
    if InstructionSet.avx512bf16.resolved == .avx512bf16 {
        if let times = ProductsCalibration.measure() {
            print(String(format: "  products calibration: BF16 %.1f µs, float %.1f µs a block (%.2f×): the default takes %@",
                         times.bf16 * 1e6, times.float * 1e6, times.bf16 / times.float,
                         ProductsCalibration.bf16Pays ? "BF16 in the tolerant layers" : "float"))
        }
        if InstructionSet.best.resolved != .avx512bf16 {
            let tolerant = try NeuralNetwork(contentsOf: modelURL, precision: .tolerantLayers)
            runs.append((describe(.avx512bf16, tolerant), tolerant, .avx512bf16))
        }
        let everywhere = try NeuralNetwork(contentsOf: modelURL, precision: .everyLayer)
        runs.append((describe(.avx512bf16, everywhere), everywhere, .avx512bf16))
    }
    if !runs.contains(where: { $0.set == InstructionSet.avx2.resolved }) {
        runs.append(("\(InstructionSet.avx2.resolved)", network, InstructionSet.avx2.resolved))
    }
    var wallTimes: [String: Timing] = [:]
    for run in runs {
        for threads in [1, 2] {
            let session = InferenceSession(network: run.network, threads: threads, instructionSet: run.set)
            let label = "NeuralNet \(run.label), \(threads) thread\(threads == 1 ? "" : "s")"
            _ = try await session.run(input)  // warm-up: scratch buffers grown, pages touched
            var samples: [Duration] = [], walls: [Duration] = []
            let clock = ContinuousClock()
            for _ in 0..<12 {
                let start = processCPUTime(), wallStart = clock.now
                _ = try await session.run(input)
                walls.append(clock.now - wallStart)
                samples.append(processCPUTime() - start)
            }
            let timing = Timing(samples: samples), wall = Timing(samples: walls)
            wallTimes[label] = wall
            print("  \(label.padding(toLength: 56, withPad: " ", startingAt: 0)) cpu median \(String(format: "%7.1f", timing.medianMilliseconds)) ms"
                  + "  min \(String(format: "%7.1f", timing.min.milliseconds)) ms"
                  + "  wall median \(String(format: "%7.1f", wall.medianMilliseconds)) ms  min \(String(format: "%7.1f", wall.min.milliseconds)) ms  (n=\(samples.count))")
        }
    }
    guard ProcessInfo.processInfo.environment["STICKERS_BENCH_NO_ORT"] != "1" else { return }
    let ort = onnxRuntimeTimings(model: modelURL, size: 320, threads: [1, 2])
    for threads in [1, 2] {
        guard let baseline = ort[threads] else { continue }
        let plural = threads == 1 ? "" : "s"
        print("  \("ONNX Runtime FP32, \(threads) thread\(plural), wall".padding(toLength: 44, withPad: " ", startingAt: 0)) \(baseline)")
        if let ours = wallTimes["NeuralNet \(runs[0].label), \(threads) thread\(plural)"] {
            printRatio("speed-up over it (wall), \(runs[0].label)", baseline: baseline, candidate: ours)
        }
    }
}

/// CPU time consumed by this process so far, all threads.
private func processCPUTime() -> Duration {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
}
