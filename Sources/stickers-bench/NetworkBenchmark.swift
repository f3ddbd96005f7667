import Foundation
import ModelFetching
import NeuralNet

/// The network stage alone, in process CPU time: U²-Net-p at 1×3×320×320 (the saliency input) run
/// again and again, each run's CPU time (all threads) taken from the process clock. CPU time, not
/// wall time, because the machines are shared: another process's load stretches wall time but
/// hardly the CPU time our threads spend. For before/after comparisons of NeuralNet's own code:
/// run two builds alternately with scripts/bench-ab.sh and compare the medians.
let networkSuite = BenchmarkSuite(name: "network", summary: "U²-Net-p 320×320: CPU time per inference, per kernel set") {
    let modelURL = try await ModelStore().locateOrFetch { print("  \($0)") }
    let network = try NeuralNetwork(contentsOf: modelURL)
    let input = [network.inputNames[0]: benchmarkInput(size: 320)]
    let best = InstructionSet.best.resolved
    var sets = [InstructionSet.best]
    if best == .avx512 { sets.append(.avx2) }
    for set in sets {
        for threads in [1, 2] {
            let session = InferenceSession(network: network, threads: threads, instructionSet: set)
            let label = "NeuralNet \(set.resolved), \(threads) thread\(threads == 1 ? "" : "s")"
            _ = try await session.run(input)  // warm-up: scratch buffers grown, pages touched
            var samples: [Duration] = []
            for _ in 0..<12 {
                let start = processCPUTime()
                _ = try await session.run(input)
                samples.append(processCPUTime() - start)
            }
            let timing = Timing(samples: samples)
            print("  \(label.padding(toLength: 36, withPad: " ", startingAt: 0)) cpu median \(String(format: "%7.1f", timing.medianMilliseconds)) ms"
                  + "  min \(String(format: "%7.1f", timing.min.milliseconds)) ms  (n=\(samples.count))")
        }
    }
}

/// CPU time consumed by this process so far, all threads.
private func processCPUTime() -> Duration {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
}
