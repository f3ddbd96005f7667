import Foundation
import ModelFetching
import NeuralNet

/// What a clip's looks cost: U²-Net-p's full look (the fused saliency) against its coarse look (the
/// 80 px side output, which skips the two full-resolution decoder stages), each in a warm session
/// on 1 and 2 threads. A clip's first pass runs a full look every fifteenth frame and coarse ones
/// between, so their ratio sets most of its network time.
let looksSuite = BenchmarkSuite(name: "looks", summary: "a clip's looks: full vs coarse (80 px side output), warm session, 1 and 2 threads") {
    let modelURL = try await ModelStore().locateOrFetch { print("  \($0)") }
    let network = try NeuralNetwork(contentsOf: modelURL)
    let inputName = network.inputNames[0]
    let input = [inputName: benchmarkInput(size: 320)]
    let outputs = [("full look (fused output)", network.outputNames[0]),
                   ("coarse look (80 px side output)", network.outputNames[min(3, network.outputNames.count - 1)])]
    for threads in [1, 2] {
        let session = InferenceSession(network: network, threads: threads)
        _ = try await session.run(input)  // warm-up: every shape seen, buffers grown
        var medians: [Double] = []
        for (label, output) in outputs {
            var cpu: [Duration] = [], walls: [Duration] = []
            let clock = ContinuousClock()
            for _ in 0..<12 {
                let start = lookCPUTime(), wallStart = clock.now
                _ = try await session.run(input, outputs: [output])
                walls.append(clock.now - wallStart)
                cpu.append(lookCPUTime() - start)
            }
            let timing = Timing(samples: cpu), wall = Timing(samples: walls)
            medians.append(timing.medianMilliseconds)
            let name = "\(label), \(threads) thread\(threads == 1 ? "" : "s")"
            print("  \(name.padding(toLength: 48, withPad: " ", startingAt: 0)) cpu median \(String(format: "%7.1f", timing.medianMilliseconds)) ms"
                  + "  wall median \(String(format: "%7.1f", wall.medianMilliseconds)) ms  (n=\(cpu.count))")
        }
        print("  coarse / full CPU, \(threads) thread\(threads == 1 ? "" : "s"): \(String(format: "%.2f", medians[1] / medians[0]))")
    }
    // A clip's lanes start in fresh sessions: a fresh session's first coarse look used to compute
    // the full-resolution decoder stages for their shape; the network's shape memo tells it what
    // another session saw (the first frame's full look, made before the lanes start).
    let coarse = outputs[1].1
    var cold: [Duration] = [], shared: [Duration] = [], warm: [Duration] = []
    for _ in 0..<3 {
        let own = try NeuralNetwork(contentsOf: modelURL)  // its own memo: nothing seen yet
        let first = InferenceSession(network: own, threads: 1)
        var start = lookCPUTime()
        _ = try await first.run(input, outputs: [coarse])
        cold.append(lookCPUTime() - start)
        start = lookCPUTime()
        _ = try await first.run(input, outputs: [coarse])
        warm.append(lookCPUTime() - start)
        let second = InferenceSession(network: own, threads: 1)
        start = lookCPUTime()
        _ = try await second.run(input, outputs: [coarse])
        shared.append(lookCPUTime() - start)
    }
    for (label, samples) in [("coarse look, a fresh network's first session", cold),
                             ("coarse look, a fresh session after another's", shared),
                             ("coarse look, the session's second", warm)] {
        print("  \(label.padding(toLength: 48, withPad: " ", startingAt: 0)) cpu median \(String(format: "%7.1f", Timing(samples: samples).medianMilliseconds)) ms  (n=\(samples.count))")
    }
}

/// CPU time consumed by this process so far, all threads.
private func lookCPUTime() -> Duration {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
}
