import Foundation
import Raster
import StickerKit
import Synchronization

/// The cut-out end to end on a 12 MP photo, and each stage's share of it.
///
/// The photo is `STICKERS_BENCH_PHOTO` if set (any JPEG), else a synthetic 4000×3000 scene: a
/// textured disc on a smooth textured background, JPEG-encoded so decoding is measured too.
let stickerSuite = BenchmarkSuite(name: "sticker", summary: "cut-out of a 12 MP photo: stages' shares, end to end") {
    let jpeg = try StickerBench.photo()
    let predictor = try await CutOutModel.load(threads: min(2, ProcessInfo.processInfo.activeProcessorCount))
    let image = try ImageDecoder.decode(jpeg)
    print("  photo \(image.width)×\(image.height), \(jpeg.count / 1024) KB JPEG")
    let extractor = SubjectExtractor(predictor: predictor)

    // Stage shares: the extractor reports each stage's duration; keep the median per stage.
    let recorded = Mutex<[String: [Duration]]>([:])
    let recordedCPU = Mutex<[String: [Duration]]>([:])
    let order = Mutex<[String]>([])
    let decode = try await measure("decode (full size, oriented)", iterations: 3) { _ = try ImageDecoder.decode(jpeg) }
    for _ in 0..<3 {
        _ = try await extractor.extractSubject(from: image) { stage in
            recorded.withLock { $0[stage.name, default: []].append(stage.wall) }
            recordedCPU.withLock { $0[stage.name, default: []].append(stage.cpu) }
            order.withLock { if !$0.contains(stage.name) { $0.append(stage.name) } }
        }
    }
    let sticker = try await extractor.extractSubject(from: image)
    let encodeSticker = try await measure("encode sticker PNG", iterations: 3) { _ = try ImageEncoder.png(sticker.image) }
    _ = try await measure("encode mask PNG", iterations: 3) { _ = try ImageEncoder.png(sticker.mask) }
    print("  sticker \(sticker.image.width)×\(sticker.image.height) → \(try ImageEncoder.png(sticker.image).count / 1024) KB, "
          + "mask \(sticker.mask.width)×\(sticker.mask.height) → \(try ImageEncoder.png(sticker.mask).count / 1024) KB")
    let banded = try await measure("encode sticker PNG in bands, one per core", iterations: 3) {
        _ = try await ImageEncoder.concurrentPNG(sticker.image)
    }
    printRatio("banded vs one-core PNG (sticker)", baseline: encodeSticker, candidate: banded)
    print("  banded sticker PNG \(try await ImageEncoder.concurrentPNG(sticker.image).count / 1024) KB")
    let encode = try await measure("encode both, banded, side by side (as the CLI does)", iterations: 3) {
        async let stickerPNG = ImageEncoder.concurrentPNG(sticker.image)
        async let maskPNG = ImageEncoder.concurrentPNG(sticker.mask)
        _ = try await (stickerPNG, maskPNG)
    }
    var stages: [(String, Double, Double?)] = [("decode", decode.medianMilliseconds, nil)]
    for stage in order.withLock({ $0 }) {
        let wall = recorded.withLock { $0[stage] ?? [] }, cpu = recordedCPU.withLock { $0[stage] ?? [] }
        stages.append((stage, Timing(samples: wall).medianMilliseconds, Timing(samples: cpu).medianMilliseconds))
    }
    stages.append(("encode PNG", encode.medianMilliseconds, nil))
    let total = stages.reduce(0) { $0 + $1.1 }
    let cutOutCPU = stages.compactMap(\.2).reduce(0, +)
    print("  stage shares (medians of 3; cpu = process CPU time, all threads):")
    for (name, ms, cpu) in stages {
        let cpuText = cpu.map { String(format: "   cpu %8.1f ms  %5.1f%% of the cut-out", $0, 100 * $0 / cutOutCPU) } ?? ""
        print("    \(name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(String(format: "%8.1f ms  %5.1f%%", ms, 100 * ms / total))\(cpuText)")
    }
    print("    \("sum".padding(toLength: 14, withPad: " ", startingAt: 0)) \(String(format: "%8.1f ms", total))")

    let endToEnd = try await measure("end to end: decode, cut out, style, encode", iterations: 3) {
        let photo = try ImageDecoder.decode(jpeg)
        let s = try await extractor.extractSubject(from: photo)
        _ = try ImageEncoder.png(s.image)
        _ = try ImageEncoder.png(s.mask)
    }
    let oneThread = SubjectExtractor(predictor: try U2NetSaliency(network: predictor.network, threads: 1))
    let serial = try await measure("end to end, inference on 1 thread", iterations: 2) {
        let photo = try ImageDecoder.decode(jpeg)
        let s = try await oneThread.extractSubject(from: photo)
        _ = try ImageEncoder.png(s.image)
        _ = try ImageEncoder.png(s.mask)
    }
    printRatio("2 threads vs 1 (end to end)", baseline: serial, candidate: endToEnd)
}

enum StickerBench {
    static func photo() throws -> Data {
        if let path = ProcessInfo.processInfo.environment["STICKERS_BENCH_PHOTO"] {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let width = 4000, height = 3000
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        var seed: UInt32 = 1
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1664525 &+ 1013904223
                let grain = Int(seed >> 28) - 8
                let dx = Double(x - 2100), dy = Double(y - 1400)
                let inDisc = dx * dx / (1300 * 1300) + dy * dy / (1000 * 1000) < 1
                let i = (y * width + x) * 4
                func byte(_ v: Int) -> UInt8 { UInt8(max(0, min(255, v))) }
                if inDisc {
                    let stripe = (x / 40 + y / 40) % 2 == 0 ? 30 : 0
                    pixels[i] = byte(210 + grain - stripe); pixels[i + 1] = byte(90 + grain); pixels[i + 2] = byte(40 + stripe)
                } else {
                    pixels[i] = byte(60 + x / 100 + grain); pixels[i + 1] = byte(110 + y / 60 + grain); pixels[i + 2] = byte(150 + grain)
                }
            }
        }
        return try ImageEncoder.jpeg(Image(width: width, height: height, pixels: pixels), quality: 90)
    }
}
