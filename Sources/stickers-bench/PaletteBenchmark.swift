import Foundation
import Raster
import StickerKit

/// `stickers-bench palette`: a 12 MP JPEG's palette end to end (read + reduced-scale decode +
/// extract), its parts, and the extractor alone on a 256 px image, for 5 and 8 colours.
///
/// The 12 MP JPEG is made from the largest JPEG in Samples/ (or $STICKERS_BENCH_JPEG), resized to
/// 4000×3000 and encoded at quality 90, so the figure is about a typical phone photo.
let paletteSuite = BenchmarkSuite(name: "palette", summary: "palette of a 12 MP JPEG end to end; extractor alone at 256 px") {
    guard let source = PaletteBenchmarkInput.largestJPEG() else {
        print("  skipped: no JPEG in Samples/ (set STICKERS_BENCH_JPEG)")
        return
    }
    let photo = try ImageDecoder.decode(try Data(contentsOf: source))
    let twelveMP = try ImageEncoder.jpeg(photo.resized(width: photo.width >= photo.height ? 4000 : 3000,
                                                       height: photo.width >= photo.height ? 3000 : 4000), quality: 90)
    let file = FileManager.default.temporaryDirectory.appending(path: "stickers-bench-12mp-\(UUID()).jpg")
    try twelveMP.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    print("  input: \(source.lastPathComponent) as a 4000×3000 JPEG, \(twelveMP.count / 1024) KB")

    let extractor = ColorExtractor()
    var endToEnd: [Int: Timing] = [:]
    for count in [5, 8] {
        endToEnd[count] = try await measure("end to end, 12 MP JPEG, n=\(count)", iterations: 15) {
            _ = try extractor.extractColors(fromImageData: try Data(contentsOf: file), count: count)
        }
    }
    let reduced = try await measure("  decode at reduced DCT scale (≥256 px)", iterations: 15) {
        _ = try ImageDecoder.decode(twelveMP, maxDimension: extractor.workingSize)
    }
    let full = try await measure("  decode at full size (for comparison)", iterations: 3) {
        _ = try ImageDecoder.decode(twelveMP)
    }
    printRatio("reduced-scale decode vs full decode", baseline: full, candidate: reduced)

    let small = photo.downsampled(toFit: 256)
    print("  extractor alone on \(small.width)×\(small.height):")
    for count in [5, 8] {
        _ = await measure("extract only, 256 px, n=\(count)", iterations: 30) {
            _ = extractor.extractColors(from: small, count: count)
        }
    }

    // The whole CLI process, as a person or a script runs it (process start included).
    let cli = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: "stickers")
    if FileManager.default.isExecutableFile(atPath: cli.path), let timing = endToEnd[8] {
        let process = try await measure("`stickers palette -n 8 --format json` process", iterations: 10) {
            let run = Process()
            run.executableURL = cli
            run.arguments = ["palette", file.path, "-n", "8", "--format", "json"]
            run.standardOutput = FileHandle.nullDevice
            try run.run()
            run.waitUntilExit()
        }
        printRatio("in-process share of the CLI's time", baseline: process, candidate: timing)
    }
}

enum PaletteBenchmarkInput {
    static func largestJPEG() -> URL? {
        if let path = ProcessInfo.processInfo.environment["STICKERS_BENCH_JPEG"] { return URL(fileURLWithPath: path) }
        let samples = URL(fileURLWithPath: "Samples")
        let files = (try? FileManager.default.contentsOfDirectory(at: samples, includingPropertiesForKeys: [.fileSizeKey])) ?? []
        return files.filter { $0.pathExtension.lowercased() == "jpg" }
            .max { size($0) < size($1) }
    }

    private static func size(_ url: URL) -> Int { (try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0 }
}
