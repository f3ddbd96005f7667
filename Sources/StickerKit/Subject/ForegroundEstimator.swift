/// Foreground colour in the soft edge, by blur fusion (Forte & Pitié, "Approximate Fast Foreground
/// Colour Estimation", ICIP 2021): local means of the foreground and background colours, then a
/// correction so that αF + (1−α)B reproduces the photo. Where alpha is fractional the photo's pixel
/// is a mix of subject and old background; F is the subject's part alone, so no halo remains.
///
/// Runs at the working resolution; `LocalColors` are sampled at full resolution afterwards.
struct ForegroundEstimator: Sendable {
    /// Window radii of the successive passes, in working pixels: wide first, then fine.
    var radii: [Int]

    /// Local mean foreground and background colours (F̂, B̂) at the working resolution.
    struct LocalColors: Sendable {
        var foreground: ColorPlanes
        var background: ColorPlanes
    }

    func estimate(image: ColorPlanes, alpha: [Float]) -> LocalColors {
        let w = image.width, h = image.height, n = w * h
        var fg = image, bg = image
        var fgMean = image, bgMean = image
        for radius in radii {
            let box = BoxFilter(width: w, height: h, radius: radius)
            let inverse = alpha.map { 1 - $0 }
            let alphaMean = box.mean(alpha), inverseMean = box.mean(inverse)
            func weightedMean(_ x: [Float], _ weight: [Float], _ weightMean: [Float], fallback: [Float]) -> [Float] {
                var product = [Float](repeating: 0, count: n)
                for i in 0..<n { product[i] = x[i] * weight[i] }
                var m = box.mean(product)
                for i in 0..<n { m[i] = weightMean[i] > 1e-4 ? m[i] / weightMean[i] : fallback[i] }
                return m
            }
            fgMean.red = weightedMean(fg.red, alpha, alphaMean, fallback: image.red)
            fgMean.green = weightedMean(fg.green, alpha, alphaMean, fallback: image.green)
            fgMean.blue = weightedMean(fg.blue, alpha, alphaMean, fallback: image.blue)
            bgMean.red = weightedMean(bg.red, inverse, inverseMean, fallback: image.red)
            bgMean.green = weightedMean(bg.green, inverse, inverseMean, fallback: image.green)
            bgMean.blue = weightedMean(bg.blue, inverse, inverseMean, fallback: image.blue)
            // Refine both layers so the composite matches the photo.
            for i in 0..<n {
                let a = alpha[i]
                func refine(_ photo: Float, _ f: Float, _ b: Float) -> (Float, Float) {
                    let residual = photo - a * f - (1 - a) * b
                    return (min(1, max(0, f + a * residual)), min(1, max(0, b + (1 - a) * residual)))
                }
                (fg.red[i], bg.red[i]) = refine(image.red[i], fgMean.red[i], bgMean.red[i])
                (fg.green[i], bg.green[i]) = refine(image.green[i], fgMean.green[i], bgMean.green[i])
                (fg.blue[i], bg.blue[i]) = refine(image.blue[i], fgMean.blue[i], bgMean.blue[i])
            }
        }
        return LocalColors(foreground: fgMean, background: bgMean)
    }
}
