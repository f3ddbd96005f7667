import Foundation
import Raster

/// Full-size JPEG decode against libjpeg-turbo's 1/8 DCT-domain decode of the same ≥ 12 MP sample.
///
/// DCT scaling skips the inverse DCT, upsampling and colour conversion of 63/64 of the pixels, but
/// every coefficient must still be Huffman-decoded, so the speed-up depends on how much entropy
/// data the file carries: the shipped sample (quality ≈ 92, 4:2:2) is measured as it is and
/// re-encoded at quality 75 (4:2:0, typical of the web), to show that dependence in one run. A
/// progressive file is read at 1/8 only as far as its first scans, so it gains much more.
let decodeSuite = BenchmarkSuite(
    name: "decode",
    summary: "12+ MP JPEG: full decode vs 1/8 DCT-scaled decode (bar: ≥ 6×)"
) {
    let url = samplesFolder().appendingPathComponent("nuthatch-20mp.jpg")
    let original = try Data(contentsOf: url)
    let decoded = try ImageDecoder.decode(original)
    let reencoded = try ImageEncoder.jpeg(decoded, quality: 75)
    let progressive = try ImageEncoder.jpeg(decoded, quality: 90, progressive: true)
    for (label, data) in [("as shipped", original), ("quality 75", reencoded), ("progressive q90", progressive)] {
        let info = try ImageDecoder.info(data)
        let eighth = (max(info.width, info.height) + 7) / 8
        print("  \(url.lastPathComponent) \(label): \(info.width)×\(info.height), \(data.count / 1024) KiB")
        var small = Image(width: 0, height: 0), large = Image(width: 0, height: 0)
        let full = try await measure("full decode", iterations: 5) { large = try ImageDecoder.decode(data) }
        let scaled = try await measure("1/8 decode (maxDimension \(eighth))", iterations: 20) {
            small = try ImageDecoder.decode(data, maxDimension: eighth)
        }
        printRatio("speed-up full / (1/8), \(label)", baseline: full, candidate: scaled)
        if label == "as shipped" {
            _ = await measure("area downsample \(small.width)×\(small.height) to 512 px", iterations: 20) {
                _ = small.downsampled(toFit: 512)
            }
            _ = await measure("EXIF orientation 6 on the full decode", iterations: 5) { _ = large.oriented(.right) }
            _ = await measure("area downsample the full decode to 512 px", iterations: 5) {
                _ = large.downsampled(toFit: 512)
            }
            // What the product does with it: a 512 px working image, without and with DCT scaling.
            let viaFull = try await measure("512 px working image via full decode", iterations: 5) {
                _ = try ImageDecoder.decode(data).downsampled(toFit: 512)
            }
            let viaEighth = try await measure("512 px working image via 1/8 decode", iterations: 20) {
                _ = try ImageDecoder.decode(data, maxDimension: 512).downsampled(toFit: 512)
            }
            printRatio("speed-up of the working image", baseline: viaFull, candidate: viaEighth)
        }
    }
}

/// Samples/ of the package this executable was built from (or of the working directory).
func samplesFolder() -> URL {
    let fromSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Samples").standardizedFileURL
    if FileManager.default.fileExists(atPath: fromSource.path) { return fromSource }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Samples")
}
