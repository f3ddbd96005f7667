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

    /// Each pass's six weighted window means (F̂ and B̂ per channel) run in parallel child tasks.
    func estimate(image: ColorPlanes, alpha: [Float]) async -> LocalColors {
        let w = image.width, h = image.height, n = w * h
        var fg = image, bg = image
        var fgMean = image, bgMean = image
        let inverse = alpha.map { 1 - $0 }
        for radius in radii {
            let box = BoxFilter(width: w, height: h, radius: radius)
            let weightMeans = await box.means([alpha, inverse])
            let alphaMean = weightMeans[0], inverseMean = weightMeans[1]
            // (plane, weight, weight's window mean, fallback where the window holds no weight)
            let jobs = [(fg.red, alpha, alphaMean, image.red), (fg.green, alpha, alphaMean, image.green),
                        (fg.blue, alpha, alphaMean, image.blue), (bg.red, inverse, inverseMean, image.red),
                        (bg.green, inverse, inverseMean, image.green), (bg.blue, inverse, inverseMean, image.blue)]
            let means = await concurrentMap(jobs) { job in
                let (x, weight, weightMean, fallback) = job
                var m = box.mean(x, times: weight)
                for i in 0..<n { m[i] = weightMean[i] > 1e-4 ? m[i] / weightMean[i] : fallback[i] }
                return m
            }
            fgMean.red = means[0]; fgMean.green = means[1]; fgMean.blue = means[2]
            bgMean.red = means[3]; bgMean.green = means[4]; bgMean.blue = means[5]
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
