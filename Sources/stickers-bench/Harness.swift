import Foundation

/// A named group of measurements, run by `stickers-bench NAME`.
struct BenchmarkSuite: Sendable {
    let name: String
    let summary: String
    let run: @Sendable () async throws -> Void
}

/// Wall-clock statistics of repeated runs of one operation.
struct Timing: Sendable, CustomStringConvertible {
    let samples: [Duration]

    var median: Duration { samples.sorted()[samples.count / 2] }
    var min: Duration { samples.min() ?? .zero }
    var medianMilliseconds: Double { median.milliseconds }

    var description: String {
        String(format: "median %8.2f ms  min %8.2f ms  (n=%d)", median.milliseconds, min.milliseconds, samples.count)
    }
}

extension Duration {
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

/// Runs `body` `warmup` times unmeasured, then `iterations` times measured.
func measure(_ label: String, iterations: Int = 10, warmup: Int = 1,
             _ body: () async throws -> Void) async rethrows -> Timing {
    let clock = ContinuousClock()
    for _ in 0..<warmup { try await body() }
    var samples: [Duration] = []
    for _ in 0..<iterations {
        samples.append(try await clock.measure { try await body() })
    }
    let timing = Timing(samples: samples)
    print("  \(label.padding(toLength: 44, withPad: " ", startingAt: 0)) \(timing)")
    return timing
}

/// Prints `baseline / candidate` as a speed-up.
func printRatio(_ label: String, baseline: Timing, candidate: Timing) {
    let ratio = baseline.medianMilliseconds / max(candidate.medianMilliseconds, 1e-9)
    print("  \(label.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%.2f×", ratio))")
}

enum BenchmarkRunner {
    static func run(suites: [BenchmarkSuite], arguments: [String]) async {
        if arguments.contains("--help") || arguments.contains("-h") {
            print("usage: stickers-bench [SUITE ...]\nsuites:")
            for suite in suites { print("  \(suite.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(suite.summary)") }
            return
        }
        let chosen = arguments.isEmpty ? suites : suites.filter { arguments.contains($0.name) }
        let unknown = arguments.filter { name in !suites.contains { $0.name == name } }
        if !unknown.isEmpty {
            print("stickers-bench: unknown suite(s): \(unknown.joined(separator: ", "))")
            exit(64)
        }
        for suite in chosen {
            print("== \(suite.name): \(suite.summary)")
            do { try await suite.run() } catch { print("  failed: \(error)") }
        }
    }
}
