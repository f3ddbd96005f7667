import Foundation
@_spi(Benchmarks) import Raster

/// PNG writing on one core: our run-length deflate (fast_deflate.c) against zlib's run-length
/// strategy, which wrote every PNG before, on the same Paeth-filtered rows of a sticker-like image:
/// the 20 MP sample photo inside an ellipse, transparent (all zero) around it, as a cut-out leaves it.
let pngSuite = BenchmarkSuite(
    name: "png",
    summary: "PNG of a 20 MP sticker-like image, one core: our deflate vs zlib's run-length strategy"
) {
    let url = samplesFolder().appendingPathComponent("nuthatch-20mp.jpg")
    var image = try ImageDecoder.decode(try Data(contentsOf: url))
    let w = image.width, h = image.height
    for y in 0..<h {
        for x in 0..<w {
            let dx = (Double(x) + 0.5) / Double(w) - 0.5, dy = (Double(y) + 0.5) / Double(h) - 0.5
            if dx * dx + dy * dy > 0.16 {
                let i = (y * w + x) * 4
                image.pixels[i] = 0; image.pixels[i + 1] = 0; image.pixels[i + 2] = 0; image.pixels[i + 3] = 0
            }
        }
    }
    print("  \(url.lastPathComponent) in an ellipse: \(w)×\(h) RGBA, \(image.pixels.count / 1_048_576) MiB")
    var ours = Data(), zlib = Data()
    let zlibTime = try await measure("zlib Z_RLE (the previous encoder)", iterations: 3) { zlib = try ImageEncoder.pngThroughZlib(image) }
    let oursTime = try await measure("ours (fast_deflate.c)", iterations: 3) { ours = try ImageEncoder.png(image) }
    printRatio("speed-up ours / zlib", baseline: zlibTime, candidate: oursTime)
    print("  size: ours \(ours.count / 1024) KiB, zlib \(zlib.count / 1024) KiB (\(String(format: "%.3f", Double(ours.count) / Double(zlib.count)))×)")
    let same = try ImageDecoder.decode(ours) == image
    print("  ours decodes to the same pixels: \(same)")
}
