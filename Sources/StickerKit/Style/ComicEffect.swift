import BoundedConcurrency
import Raster

/// The comic look's colours: the subject smoothed a little (so flat regions come out clean rather
/// than speckled), then every pixel replaced by the nearest of a few flat tones — the subject's own
/// dominant colours, found in OKLab by the palette extractor and made a little bolder. The soft
/// edge is made crisp (a comic has no half-transparent fur; the outline shows instead). The ink
/// line is drawn by the renderer, which has the distance field.
struct ComicEffect: Sendable {
    /// How many flat tones the subject is reduced to (the ink line comes on top).
    var toneCount = 8
    /// The smoothing window's radius as a fraction of the subject's smaller side.
    var smoothingFraction = 0.006
    /// The ink line's width as a fraction of the subject's smaller side (at least 1 pixel).
    var inkFraction = 0.008
    /// Chroma and lightness contrast of the tones, relative to the photo's (comic colours are bold).
    var chromaBoost: Float = 1.2
    var lightnessSpread: Float = 1.1
    /// Near black, slightly cool: printed ink rather than a hole.
    static let ink = RGBA8(r: 24, g: 22, b: 30)

    func inkWidth(width: Int, height: Int) -> Float {
        max(1, Float((Double(min(width, height)) * inkFraction).rounded()))
    }

    /// How much steeper the edge's alpha ramp gets (about its middle, so the silhouette stays put).
    var edgeSharpening = 3

    /// `cutOut` with its colours posterised to the tones and its edge made crisp.
    func posterised(_ cutOut: Image) -> Image {
        guard let tones = nonEmptyTones(of: cutOut) else { return cutOut }
        let (planes, box) = weightedPlanes(of: cutOut)
        let smoothed = planes.map { box.mean($0) }
        let pixels = Self.map(cutOut, smoothed: smoothed, rows: 0..<cutOut.height,
                              tones: tones, table: Self.nearestToneTable(tones), sharpening: edgeSharpening)
        return Image(width: cutOut.width, height: cutOut.height, pixels: pixels)
    }

    /// As `posterised(_:)`, the planes smoothed and the rows mapped on parallel child tasks.
    func posterised(_ cutOut: Image, bands: Int) async -> Image {
        guard let tones = nonEmptyTones(of: cutOut) else { return cutOut }
        let (planes, box) = weightedPlanes(of: cutOut)
        let smoothed = await box.means(planes)
        let table = Self.nearestToneTable(tones)
        let parts = await concurrentMap(rowBands(cutOut.height, count: bands)) { rows in
            Self.map(cutOut, smoothed: smoothed, rows: rows, tones: tones, table: table, sharpening: edgeSharpening)
        }
        return Image(width: cutOut.width, height: cutOut.height, pixels: joinedBands(parts))
    }

    private func nonEmptyTones(of cutOut: Image) -> [RGBA8]? {
        guard cutOut.width > 0, cutOut.height > 0 else { return nil }
        let tones = tones(of: cutOut)
        return tones.isEmpty ? nil : tones
    }

    /// The flat tones: the subject's dominant colours (transparent pixels ignored), bolder.
    func tones(of cutOut: Image) -> [RGBA8] {
        let scheme = ColorExtractor().extractColors(from: cutOut, count: toneCount)
        let labs = scheme.colors.map { OKLab(red: $0.red, green: $0.green, blue: $0.blue) }
        guard !labs.isEmpty else { return [] }
        let meanL = zip(labs, scheme.colors).reduce(Float(0)) { $0 + $1.0.L * Float($1.1.weight) }
        return labs.map { lab in
            // Dark tones keep their chroma: boosted, a black's faint cast turns olive or purple.
            let boost = 1 + (chromaBoost - 1) * min(1, max(0, (lab.L - 0.25) / 0.35))
            return OKLab(L: min(0.98, max(0.08, meanL + (lab.L - meanL) * lightnessSpread)),
                         a: lab.a * boost, b: lab.b * boost).rgb8
        }
    }

    /// Red, green, blue times alpha and alpha, with the box filter that smooths them: their means
    /// divided by alpha's are the smoothed colours, transparent pixels lending none to the edge.
    private func weightedPlanes(of cutOut: Image) -> ([[Float]], BoxFilter) {
        let n = cutOut.pixelCount
        var red = [Float](repeating: 0, count: n), green = red, blue = red, alpha = red
        cutOut.pixels.withUnsafeBufferPointer { px in
            red.withUnsafeMutableBufferPointer { r in
            green.withUnsafeMutableBufferPointer { g in
            blue.withUnsafeMutableBufferPointer { b in
            alpha.withUnsafeMutableBufferPointer { a in
                for i in 0..<n {
                    let weight = Float(px[i * 4 + 3])
                    r[i] = Float(px[i * 4]) * weight
                    g[i] = Float(px[i * 4 + 1]) * weight
                    b[i] = Float(px[i * 4 + 2]) * weight
                    a[i] = weight
                }
            }
            }
            }
            }
        }
        let planes = [red, green, blue, alpha]
        let radius = max(1, Int((Double(min(cutOut.width, cutOut.height)) * smoothingFraction).rounded()))
        return (planes, BoxFilter(width: cutOut.width, height: cutOut.height, radius: radius))
    }

    /// The index of the nearest tone (OKLab distance) for every colour at 5 bits per channel, so
    /// a pixel costs a table look-up rather than three cube roots.
    static func nearestToneTable(_ tones: [RGBA8]) -> [UInt8] {
        let labs = tones.map { OKLab(red: $0.r, green: $0.g, blue: $0.b) }
        var table = [UInt8](repeating: 0, count: 32 * 32 * 32)
        for r in 0..<32 {
            for g in 0..<32 {
                for b in 0..<32 {
                    let lab = OKLab(red: UInt8(r * 8 + 4), green: UInt8(g * 8 + 4), blue: UInt8(b * 8 + 4))
                    var best = 0, bestDistance = Float.infinity
                    for (i, tone) in labs.enumerated() {
                        let dL = lab.L - tone.L, da = lab.a - tone.a, db = lab.b - tone.b
                        let d = dL * dL + da * da + db * db
                        if d < bestDistance { bestDistance = d; best = i }
                    }
                    table[(r << 10) | (g << 5) | b] = UInt8(best)
                }
            }
        }
        return table
    }

    private static func map(_ cutOut: Image, smoothed: [[Float]], rows: Range<Int>,
                            tones: [RGBA8], table: [UInt8], sharpening: Int) -> [UInt8] {
        let w = cutOut.width, first = rows.lowerBound * w
        var out = Array(cutOut.pixels[(first * 4)..<(rows.upperBound * w * 4)])
        smoothed[0].withUnsafeBufferPointer { red in
        smoothed[1].withUnsafeBufferPointer { green in
        smoothed[2].withUnsafeBufferPointer { blue in
        smoothed[3].withUnsafeBufferPointer { alpha in
        table.withUnsafeBufferPointer { table in
        out.withUnsafeMutableBufferPointer { out in
            for i in first..<(rows.upperBound * w) {
                let o = (i - first) * 4
                guard out[o + 3] > 0, alpha[i] > 0 else { continue }
                let inv = 1 / alpha[i]
                let r = Int(min(255, red[i] * inv)), g = Int(min(255, green[i] * inv)), b = Int(min(255, blue[i] * inv))
                let tone = tones[Int(table[((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3)])]
                out[o] = tone.r; out[o + 1] = tone.g; out[o + 2] = tone.b
                out[o + 3] = UInt8(min(255, max(0, (Int(out[o + 3]) - 128) * sharpening + 128)))
            }
        }
        }
        }
        }
        }
        }
        return out
    }
}
