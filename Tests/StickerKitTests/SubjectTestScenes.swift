import Raster
@testable import StickerKit

/// Synthetic photos and stand-in predictors for the cut-out pipeline's tests.
enum SubjectScenes {
    /// A disc of `color` on a flat (or noisy) background; also returns the true coverage (0…1).
    static func disc(width: Int, height: Int, centerX: Double, centerY: Double, radius: Double,
                     color: RGBA8 = RGBA8(r: 220, g: 40, b: 40), background: RGBA8 = RGBA8(r: 60, g: 150, b: 70),
                     noise: Int = 0) -> (image: Image, truth: [Double]) {
        var image = Image(width: width, height: height, fill: background)
        var truth = [Double](repeating: 0, count: width * height)
        var seed: UInt64 = 12345
        for y in 0..<height {
            for x in 0..<width {
                // 4×4 supersampled coverage: a truly anti-aliased edge.
                var covered = 0
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        let px = Double(x) + (Double(sx) + 0.5) / 4, py = Double(y) + (Double(sy) + 0.5) / 4
                        if (px - centerX) * (px - centerX) + (py - centerY) * (py - centerY) <= radius * radius { covered += 1 }
                    }
                }
                let c = Double(covered) / 16
                truth[y * width + x] = c
                func mix(_ f: UInt8, _ b: UInt8) -> UInt8 {
                    var v = Double(f) * c + Double(b) * (1 - c)
                    if noise > 0 {
                        seed = seed &* 6364136223846793005 &+ 1442695040888963407
                        v += Double(Int(seed >> 33) % (2 * noise + 1) - noise)
                    }
                    return UInt8(min(255, max(0, v.rounded())))
                }
                image[x, y] = RGBA8(r: mix(color.r, background.r), g: mix(color.g, background.g), b: mix(color.b, background.b))
            }
        }
        return (image, truth)
    }
}

/// Stands in for the network: saliency = how far each pixel's colour is from the frame's mean
/// border colour, computed on a coarse 40×40 grid and blurred, so its edges are as vague as a
/// 320 px net's output on a large photo. The pipeline must recover the true edge from the photo.
struct ContrastSaliency: SaliencyPredicting {
    var gridSide = 40

    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        // StickerKit's stand-in (far from the border colour or not, on the grid), then softened.
        let plane = try await BorderContrastSaliency(gridSide: gridSide).saliency(of: image)
        // One 3×3 blur pass: soft, network-like edges.
        var blurred = plane
        for y in 0..<gridSide {
            for x in 0..<gridSide {
                var s: Float = 0, c: Float = 0
                for dy in -1...1 { for dx in -1...1 {
                    let nx = x + dx, ny = y + dy
                    if nx >= 0 && ny >= 0 && nx < gridSide && ny < gridSide { s += plane[nx, ny]; c += 1 }
                } }
                blurred[x, y] = s / c
            }
        }
        return blurred
    }
}

/// Returns a fixed saliency map whatever the photo.
struct FixedSaliency: SaliencyPredicting {
    var plane: Plane
    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane { plane }
}

func intersectionOverUnion(_ mask: Mask, _ truth: [Double]) -> Double {
    var both = 0, either = 0
    for (i, v) in mask.values.enumerated() {
        let p = v >= 128, t = truth[i] >= 0.5
        if p && t { both += 1 }
        if p || t { either += 1 }
    }
    return either == 0 ? 1 : Double(both) / Double(either)
}
