import Foundation
import Raster
import StickerKit

/// Whether clip decoding leaves the cooperative pool free (issue 34, the web app): while one
/// ffmpeg reader per core streams a 1080p clip's frames, a "ping" task is started every 5 ms and
/// the time until it runs is recorded. Compared in one run against a baseline reader that waits
/// on the pipe the way ClipFrameReader used to (a blocking read(2) on the task's pool thread):
/// with the pool's threads asleep in read(2) while ffmpeg decodes, other work (a web request)
/// waits; with `PipeEnd` (each read on a thread of its own, the task awaiting it) it does not.
let clipWaitSuite = BenchmarkSuite(name: "clipwait", summary: "pool latency while clips decode: awaited pipe vs blocking read(2)") {
    guard let ffmpeg = ClipWaitBench.tool("ffmpeg") else { print("  skipped: no ffmpeg on PATH"); return }
    let folder = FileManager.default.temporaryDirectory.appending(path: "stickers-bench-clipwait-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let clip = folder.appending(path: "clip.mp4")
    let made = Process()
    made.executableURL = URL(fileURLWithPath: ffmpeg)
    made.arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=1920x1080:r=30:d=4", "-c:v", "libx264",
                      "-preset", "veryfast", "-pix_fmt", "yuv420p", clip.path]
    try made.run()
    made.waitUntilExit()  // before any measurement: nothing else runs yet
    let info = try await ClipInfo.probe(clip)
    let readers = ProcessInfo.processInfo.activeProcessorCount
    print("  clip 1920×1080, 4 s at 30 fps; \(readers) reader(s) at once (one per core), frames at full size")

    for round in 0..<2 {
        for blocking in [true, false] {
            let (latencies, frames, seconds) = try await ClipWaitBench.run(readers: readers) {
                if blocking { return try await ClipWaitBench.blockingFrames(clip: clip, info: info, ffmpeg: ffmpeg) }
                let reader = try ClipFrameReader(clip: clip, info: info, piece: ClipPiece(duration: 10), width: info.width, height: info.height)
                var count = 0
                while try await reader.next() != nil { count += 1 }
                return count
            }
            let sorted = latencies.sorted()
            func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            print(String(format: "  %@ %-28@ ping p50 %6.2f ms  p95 %6.2f ms  max %7.2f ms  (%d pings; %d frames in %.2f s)",
                         "round \(round + 1):", blocking ? "blocking read(2) (pool)" : "PipeEnd (own thread)",
                         percentile(0.5), percentile(0.95), sorted.last ?? 0, sorted.count, frames, seconds))
        }
    }
}

enum ClipWaitBench {
    static func tool(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `readers` copies of `read` at once while pinging the pool every 5 ms; the pings'
    /// latencies (ms), the frames read, the seconds taken.
    static func run(readers: Int, _ read: @escaping @Sendable () async throws -> Int) async throws -> ([Double], Int, Double) {
        let start = ContinuousClock.now
        return try await withThrowingTaskGroup(of: (frames: Int, pings: [Double]).self) { group in
            for _ in 0..<readers { group.addTask { (try await read(), []) } }
            group.addTask {
                var pings: [Double] = []
                // Pings for as long as the readers take (they end the group by finishing first).
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(5))
                    let sent = ContinuousClock.now
                    await Task.detached { }.value
                    pings.append((ContinuousClock.now - sent).milliseconds)
                }
                return (0, pings)
            }
            var frames = 0, finished = 0, pings: [Double] = []
            for try await result in group {
                frames += result.frames
                pings += result.pings
                finished += 1
                if finished == readers { group.cancelAll() }
            }
            return (pings, frames, (ContinuousClock.now - start).milliseconds / 1000)
        }
    }

    /// The baseline: ffmpeg's frames read with a blocking read(2) on this task's pool thread, as
    /// ClipFrameReader did before (kept here only to be measured against).
    static func blockingFrames(clip: URL, info: ClipInfo, ffmpeg: String) async throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ffmpeg)
        process.arguments = ["-v", "error", "-nostdin", "-i", clip.path, "-an", "-fps_mode", "passthrough",
                             "-f", "rawvideo", "-pix_fmt", "rgba", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fd = pipe.fileHandleForReading.fileDescriptor
        let count = info.width * info.height * 4
        var frames = 0
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            var filled = 0
            buffer.withUnsafeMutableBytes { raw in
                while filled < count {
                    let n = read(fd, raw.baseAddress! + filled, count - filled)
                    if n > 0 { filled += n } else if n < 0 && errno == EINTR { continue } else { break }
                }
            }
            if filled < count { break }
            frames += 1
            await Task.yield()
        }
        process.waitUntilExit()
        return frames
    }
}
