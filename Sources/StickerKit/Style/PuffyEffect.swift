import Foundation

/// The puffy look: the sticker (subject and outline) read as an inflated cushion. Its height
/// rises from the silhouette's edge with a rounded profile of the distance inside, so the rim is
/// steep and the middle flat; lit from the top left, the rim facing away darkens and a soft gloss
/// sits on the rim facing the light. A flat middle keeps its colours exactly.
struct PuffyEffect: Sendable {
    /// How far in the cushion keeps rising, as a fraction of the subject's smaller side.
    var radiusFraction: Float = 0.12
    /// Towards the light: from the top left, above the picture (y grows downwards).
    var light = normalized(SIMD3<Float>(-0.55, -0.7, 0.9))
    /// How much brighter (towards the light) or darker (away) a slope gets, and the floor.
    var relief: Float = 0.4
    var darkest: Float = 0.65
    /// The gloss: Blinn–Phong exponent (low: broad and soft) and its strength (blended to white).
    var shininess: Float = 10
    var glossStrength: Float = 0.6

    /// Per grid cell, the factor the colour is multiplied by and the fraction blended to white,
    /// from the distance (canvas pixels) of each cell inside the silhouette (0 outside).
    func shading(inside: [Float], width: Int, height: Int, step: Int, radius: Float) -> (shade: [Float], gloss: [Float]) {
        let r = max(1, radius)
        var heights = inside.map { d -> Float in
            let t = min(d / r, 1), u = 1 - t
            return r * (1 - u * u * u).squareRoot()
        }
        // The distance field has creases along the middle of narrow parts; a little smoothing
        // turns them into the round ridge a cushion has.
        let box = BoxFilter(width: width, height: height, radius: max(1, Int((r / Float(4 * step)).rounded())))
        for _ in 0..<2 { heights = box.mean(heights) }
        let half = SIMD3<Float>(light.x, light.y, light.z + 1)
        let halfway = half / (half * half).sum().squareRoot()
        let flatGloss = Self.power(halfway.z, shininess)
        var shade = [Float](repeating: 1, count: width * height)
        var gloss = [Float](repeating: 0, count: width * height)
        let span = Float(2 * step)
        for y in 0..<height {
            let up = max(0, y - 1) * width, down = min(height - 1, y + 1) * width, row = y * width
            for x in 0..<width where inside[row + x] > 0 {
                let gx = (heights[row + min(width - 1, x + 1)] - heights[row + max(0, x - 1)]) / span
                let gy = (heights[down + x] - heights[up + x]) / span
                let n = SIMD3<Float>(-gx, -gy, 1) / (gx * gx + gy * gy + 1).squareRoot()
                shade[row + x] = max(darkest, 1 + relief * ((n * light).sum() - light.z) / light.z)
                let specular = Self.power(max(0, (n * halfway).sum()), shininess)
                gloss[row + x] = glossStrength * max(0, specular - flatGloss) / (1 - flatGloss)
            }
        }
        return (shade, gloss)
    }

    private static func power(_ x: Float, _ e: Float) -> Float { x <= 0 ? 0 : exp2(e * log2(x)) }
}

private func normalized(_ v: SIMD3<Float>) -> SIMD3<Float> { v / (v * v).sum().squareRoot() }
