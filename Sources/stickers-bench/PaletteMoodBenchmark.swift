import Foundation
import Raster
import StickerKit

/// `stickers-bench palette-moods [FOLDER]`: on a photo set (default /work/shared/evalset, or
/// $STICKERS_BENCH_PHOTOS), each mood's palette against the default one of the same photo:
/// mean OKLCH lightness and chroma of the colours, how many photos moved the way the mood says,
/// how far each mood colour is from the nearest pixel of the photo (CIEDE2000, on the 256 px
/// image the extractor reads), and the time per palette. n = 5 colours.
let paletteMoodSuite = BenchmarkSuite(name: "palette-moods", summary: "moods vs the default palette on a photo set: lightness, chroma, distance to the photo's pixels") {
    let folder = URL(fileURLWithPath: ProcessInfo.processInfo.environment["STICKERS_BENCH_PHOTOS"] ?? "/work/shared/evalset")
    let files = ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
        .filter { $0.pathExtension.lowercased() == "jpg" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
    guard !files.isEmpty else {
        print("  skipped: no JPEG in \(folder.path) (set STICKERS_BENCH_PHOTOS)")
        return
    }
    let extractor = ColorExtractor()
    struct Row { var L = 0.0, C = 0.0, moved = 0, darker = 0, nearestMean = 0.0, nearestMax = 0.0, colours = 0, milliseconds = 0.0 }
    var rows: [String: Row] = [:]
    let moods: [PaletteMood?] = [nil] + PaletteMood.allCases.map(Optional.some)
    for file in files {
        let image = try ImageDecoder.decode(try Data(contentsOf: file), maxDimension: extractor.workingSize)
        // The pixels the extractor counts: the image area-averaged to its working size.
        let small = image.downsampled(toFit: extractor.workingSize)
        var pixelLabs: [CIELab] = []
        var seen = Set<UInt32>()
        for i in stride(from: 0, to: small.pixels.count, by: 4) {
            let key = UInt32(small.pixels[i]) << 16 | UInt32(small.pixels[i + 1]) << 8 | UInt32(small.pixels[i + 2])
            if seen.insert(key).inserted { pixelLabs.append(CIELab(red: small.pixels[i], green: small.pixels[i + 1], blue: small.pixels[i + 2])) }
        }
        var base = (L: 0.0, C: 0.0)
        for mood in moods {
            let clock = ContinuousClock()
            let start = clock.now
            let scheme = extractor.extractColors(from: image, count: 5, mood: mood)
            let elapsed = clock.now - start
            let labs = scheme.colors.map { OKLab(red: $0.red, green: $0.green, blue: $0.blue) }
            let n = Double(max(labs.count, 1))
            let L = labs.reduce(0.0) { $0 + Double($1.L) } / n
            let C = labs.reduce(0.0) { $0 + Double(($1.a * $1.a + $1.b * $1.b).squareRoot()) } / n
            let key = mood?.rawValue ?? "default"
            var row = rows[key] ?? Row()
            row.L += L; row.C += C
            row.milliseconds += Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
            if ProcessInfo.processInfo.environment["STICKERS_BENCH_VERBOSE"] != nil {
                print("  \(file.lastPathComponent) \(key): L \(String(format: "%.3f", L)) C \(String(format: "%.3f", C)) "
                      + scheme.colors.map(\.hex).joined(separator: " "))
            }
            if let mood {
                let moved = switch mood {
                case .colorful: C > base.C
                case .muted: C < base.C
                case .bright: L > base.L
                case .dark: L < base.L
                case .deep: L < base.L && C >= base.C * 0.9
                }
                if moved { row.moved += 1 }
                if L < base.L { row.darker += 1 }
            } else {
                base = (L, C)
            }
            for color in scheme.colors {
                let lab = CIELab(red: color.red, green: color.green, blue: color.blue)
                let nearest = pixelLabs.reduce(Double.infinity) { min($0, lab.deltaE2000(to: $1)) }
                row.nearestMean += nearest; row.nearestMax = max(row.nearestMax, nearest); row.colours += 1
            }
            rows[key] = row
        }
    }
    let count = Double(files.count)
    print("  \(files.count) photos from \(folder.path), n = 5")
    print("  | palette  | mean L | mean C | moved the right way | ΔE2000 to nearest pixel: mean / max | ms per palette |")
    print("  |----------|-------:|-------:|--------------------:|------------------------------------:|---------------:|")
    for mood in moods {
        let key = mood?.rawValue ?? "default"
        guard let row = rows[key] else { continue }
        let moved = mood == nil ? "—" : "\(row.moved) / \(files.count)"
        let direction = switch mood {
        case .colorful?: " (C ↑)"
        case .muted?: " (C ↓)"
        case .bright?: " (L ↑)"
        case .dark?: " (L ↓)"
        case .deep?: " (L ↓ and C ≥ 0.9× default; L ↓ alone: \(row.darker) / \(files.count))"
        case nil: ""
        }
        print("  | \(key.padding(toLength: 8, withPad: " ", startingAt: 0)) | "
              + String(format: "%.3f  | %.3f  | ", row.L / count, row.C / count) + moved + direction
              + String(format: " | %.2f / %.2f | %.2f |", row.nearestMean / Double(max(row.colours, 1)), row.nearestMax,
                       row.milliseconds / count))
    }
}
