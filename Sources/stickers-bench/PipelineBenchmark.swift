import Dispatch
import Foundation
import Raster
import StickerApp
import StickerKit

/// Issue 6's figures: batch scaling, `async let` stages vs sequential, main-actor responsiveness
/// during a batch (and what a naive main-actor design costs), the cache, and peak memory of `make`.
let pipelineSuite = BenchmarkSuite(name: "pipeline", summary: "make on the Samples: scaling, stages, heartbeat, cache, memory") {
    // First, while this process is still small: the child's peak as the kernel reports it counts
    // the forked copy of this process too until it execs the CLI.
    try PeakMemory.reportMakeOnSamples()
    let photos = try SamplePhotos.all()
    print("  \(photos.count) sample photos, \(photos.reduce(0) { $0 + $1.count } / 1_048_576) MB")
    let log: @Sendable (String) -> Void = { print("  \($0)") }

    // Scaling: the same batch with 1 and 2 photos at a time, fresh cache each time. "1 thread"
    // isolates the task group's scaling; "2 threads" is what a one-job run really does (the
    // network then uses both cores for its one photo).
    let oneJobOneThread = try await StickerEngine.photoProcessor(colorCount: 5, concurrentPhotos: 2, log: log)
    let oneJobTwoThreads = try await StickerEngine.photoProcessor(colorCount: 5, concurrentPhotos: 1, log: log)
    let serial = await measure("batch, 1 job, network on 1 thread", iterations: 3, warmup: 1) {
        await PipelineRun.batch(photos, processor: oneJobOneThread, jobs: 1)
    }
    let serialTwoThreads = await measure("batch, 1 job, network on 2 threads", iterations: 3, warmup: 0) {
        await PipelineRun.batch(photos, processor: oneJobTwoThreads, jobs: 1)
    }
    let parallel = await measure("batch, 2 jobs, network on 1 thread each", iterations: 3, warmup: 0) {
        await PipelineRun.batch(photos, processor: oneJobOneThread, jobs: 2)
    }
    printRatio("speed-up 2 jobs vs 1 job (1 thread)", baseline: serial, candidate: parallel)
    printRatio("speed-up 2 jobs vs 1 job (2 threads)", baseline: serialTwoThreads, candidate: parallel)

    // Within one photo: colour stage beside the cut-out (async let) vs after it.
    var sequentialStages = oneJobOneThread
    sequentialStages.runsStagesConcurrently = false
    let sequential = await measure("one photo at a time, stages sequential", iterations: 3, warmup: 0) {
        for photo in photos { _ = try? await sequentialStages.process(data: photo) }
    }
    let overlapped = await measure("one photo at a time, stages async let", iterations: 3, warmup: 0) {
        for photo in photos { _ = try? await oneJobOneThread.process(data: photo) }
    }
    printRatio("speed-up async let vs sequential stages", baseline: sequential, candidate: overlapped)

    // Responsiveness: a 5 ms frame clock on the main thread (as a UI's display timer is) while the
    // batch runs, and the same measured with a main-actor task sleeping 5 ms, whose wake-up must
    // first find a free thread in the cooperative pool the batch keeps busy.
    let designed = await FrameClock.lateness(during: { await PipelineRun.batch(photos, processor: oneJobOneThread, jobs: 2) })
    print("  frame clock lateness, engine off the main actor    \(designed)")
    let naive = await FrameClock.lateness(during: { await PipelineRun.batch(photos, processor: MainActorProcessor(oneJobOneThread), jobs: 2) })
    print("  frame clock lateness, naive: work on the main actor \(naive)")
    let sleeping = await Heartbeat.lateness(during: { await PipelineRun.batch(photos, processor: oneJobOneThread, jobs: 2) })
    print("  Task.sleep heartbeat lateness, engine off main     \(sleeping)")

    // Cache: a second run over the same photos in one process, sharing the cache.
    let cache = ProcessedPhotoCache(processor: oneJobOneThread)
    let clock = ContinuousClock()
    let first = await clock.measure { await PipelineRun.batch(photos, cache: cache, jobs: 2) }
    let second = await clock.measure { await PipelineRun.batch(photos, cache: cache, jobs: 2) }
    print(String(format: "  cache: first run %.1f ms, second run %.2f ms: %.0f× faster",
                 first.milliseconds, second.milliseconds, first.milliseconds / max(second.milliseconds, 1e-6)))

}

/// The sample photos' bytes.
enum SamplePhotos {
    static var folder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Samples")
    }

    static func all() throws -> [Data] {
        try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { ["jpg", "jpeg", "png"].contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
            .map { try Data(contentsOf: $0) }
    }
}

/// Runs a batch through the real model layer, as `stickers make` does (without writing the pack).
@MainActor
enum PipelineRun {
    static func batch(_ photos: [Data], processor: any PhotoProcessing, jobs: Int) async {
        await batch(photos, cache: ProcessedPhotoCache(processor: processor), jobs: jobs)
    }

    static func batch(_ photos: [Data], cache: ProcessedPhotoCache, jobs: Int) async {
        let model = StickerViewModel(cache: cache, maxConcurrentJobs: jobs)
        model.select(photos.enumerated().map { SelectedPhoto(name: "photo \($0.offset)", source: .data($0.element)) })
        await model.processAllPhotos()
    }
}

/// The naive design the project avoids: the heavy stages (decode, network, colours) run on the
/// main actor, so every photo freezes the UI for its whole duration. (The network's `saliency` is
/// a nonisolated async function without `@concurrent`, so called from the main actor it runs there.)
struct MainActorProcessor: PhotoProcessing {
    let engine: PhotoProcessor
    init(_ engine: PhotoProcessor) { self.engine = engine }

    func process(data: Data) async throws -> ProcessedPhoto {
        try await Self.processOnMainActor(data, engine: engine)
    }

    @MainActor
    private static func processOnMainActor(_ data: Data, engine: PhotoProcessor) async throws -> ProcessedPhoto {
        let image = try ImageDecoder.decode(data)
        let work = image.downsampled(toFit: 1024)
        _ = try await engine.subjectExtractor.predictor.saliency(of: work)
        let colors = ColorExtractor().extractColors(from: image, count: engine.colorCount)
        let placeholder = Sticker(image: work, mask: Mask(width: 1, height: 1))
        return ProcessedPhoto(sticker: placeholder, colorScheme: colors)
    }
}

/// Measures how late a main-actor timer ticking every 5 ms fires while `work` runs.
@MainActor
enum Heartbeat {
    struct Lateness: CustomStringConvertible {
        let samples: [Double]
        func percentile(_ p: Double) -> Double {
            let sorted = samples.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
        var description: String {
            String(format: "p50 %6.2f ms  p99 %7.2f ms  max %7.2f ms  (%d ticks)",
                   percentile(0.5), percentile(0.99), samples.max() ?? 0, samples.count)
        }
    }

    final class Recorder { var samples: [Double] = [] }

    static func lateness(during work: @MainActor () async -> Void) async -> Lateness {
        let recorder = Recorder()
        let ticker = Task { @MainActor in
            let clock = ContinuousClock()
            while !Task.isCancelled {
                let due = clock.now + .milliseconds(5)
                try? await Task.sleep(until: due, tolerance: .zero, clock: clock)
                recorder.samples.append((clock.now - due).milliseconds)
            }
        }
        await work()
        ticker.cancel()
        _ = await ticker.value
        return Lateness(samples: recorder.samples)
    }
}

/// A UI's frame clock on the main thread: a timer on the main dispatch queue firing every 5 ms,
/// recording how late each tick ran. Dispatch because a display timer is a run-loop source, not a
/// Swift task: its ticks reach the main actor without waiting for a thread of the cooperative
/// pool, exactly as a UI's events do, so it measures whether the main actor itself is free.
@MainActor
enum FrameClock {
    static func lateness(during work: @MainActor () async -> Void) async -> Heartbeat.Lateness {
        let recorder = Heartbeat.Recorder()
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let clock = ContinuousClock()
        let period = Duration.milliseconds(5)
        var due = clock.now + period
        timer.setEventHandler {
            MainActor.assumeIsolated {
                let now = clock.now
                recorder.samples.append(max(0, (now - due).milliseconds))
                due = now + period
                timer.schedule(deadline: .now() + .milliseconds(5), leeway: .nanoseconds(0))
            }
        }
        timer.schedule(deadline: .now() + .milliseconds(5), leeway: .nanoseconds(0))
        timer.resume()
        await work()
        timer.cancel()
        return Heartbeat.Lateness(samples: recorder.samples)
    }
}

/// Peak resident memory of the release CLI making the Samples' pack with two jobs, read from the
/// kernel's accounting of the child process (what `/usr/bin/time -v` reports as maximum RSS).
enum PeakMemory {
    static func reportMakeOnSamples() throws {
        let cli = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "stickers")
        guard FileManager.default.isExecutableFile(atPath: cli.path) else {
            print("  peak RSS: build the CLI in the same configuration first (swift build -c release --product stickers)")
            return
        }
        let output = FileManager.default.temporaryDirectory.appending(path: "bench-pack-\(UUID()).zip")
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = cli
        process.arguments = ["make", SamplePhotos.folder.path, "-o", output.path, "--jobs", "2"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            try process.run()
            process.waitUntilExit()
        }
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        print(String(format: "  stickers make Samples --jobs 2: exit %d, %.0f ms, peak RSS %.0f MB",
                     process.terminationStatus, elapsed.milliseconds, Double(usage.ru_maxrss) / 1024))
    }
}
