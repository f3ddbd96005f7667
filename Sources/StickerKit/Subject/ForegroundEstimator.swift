import BoundedConcurrency

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

    /// Each pass's six weighted window means (F̂ and B̂ per channel) run in parallel child tasks,
    /// then each channel's refinement.
    func estimate(image: ColorPlanes, alpha: [Float]) async -> LocalColors {
        let w = image.width, h = image.height
        var fg = image, bg = image
        var fgMean = image, bgMean = image
        let inverse = alpha.map { 1 - $0 }
        for (pass, radius) in radii.enumerated() {
            let box = BoxFilter(width: w, height: h, radius: radius)
            let weightMeans = await box.means([alpha, inverse])
            let alphaMean = weightMeans[0], inverseMean = weightMeans[1]
            // (plane, weight, weight's window mean, fallback where the window holds no weight)
            let jobs = [(fg.red, alpha, alphaMean, image.red), (fg.green, alpha, alphaMean, image.green),
                        (fg.blue, alpha, alphaMean, image.blue), (bg.red, inverse, inverseMean, image.red),
                        (bg.green, inverse, inverseMean, image.green), (bg.blue, inverse, inverseMean, image.blue)]
            let means = await concurrentMap(jobs) { job in
                let (x, weight, weightMean, fallback) = job
                var means = box.mean(x, times: weight)
                Self.normalise(&means, by: weightMean, fallback: fallback)
                return means
            }
            fgMean.red = means[0]; fgMean.green = means[1]; fgMean.blue = means[2]
            bgMean.red = means[3]; bgMean.green = means[4]; bgMean.blue = means[5]
            // The last pass's means are the answer; the layers are refined only for the next pass.
            guard pass < radii.count - 1 else { break }
            let photo = [image.red, image.green, image.blue]
            let layers = await concurrentMap([0, 1, 2]) { c in
                Self.refined(photo: photo[c], foreground: means[c], background: means[3 + c], alpha: alpha)
            }
            (fg.red, bg.red) = layers[0]; (fg.green, bg.green) = layers[1]; (fg.blue, bg.blue) = layers[2]
        }
        return LocalColors(foreground: fgMean, background: bgMean)
    }

    /// `sums / weights` where the window holds weight, else the fallback, in place (a copy would be a
    /// fresh working-size plane: page faults).
    static func normalise(_ sums: inout [Float], by weights: [Float], fallback: [Float]) {
        sums.withUnsafeMutableBufferPointer { m in
            weights.withUnsafeBufferPointer { wm in
                fallback.withUnsafeBufferPointer { f in
                    for i in m.indices { m[i] = wm[i] > 1e-4 ? m[i] / wm[i] : f[i] }
                }
            }
        }
    }

    /// One channel's foreground and background layers corrected so that αF + (1−α)B reproduces the photo.
    static func refined(photo: [Float], foreground: [Float], background: [Float], alpha: [Float]) -> ([Float], [Float]) {
        let n = photo.count
        // Two arrays made apart: `bOut = fOut` would share one buffer and copy it on the first write.
        var fOut = [Float](unsafeUninitializedCapacity: n) { _, count in count = n }
        var bOut = [Float](unsafeUninitializedCapacity: n) { _, count in count = n }
        photo.withUnsafeBufferPointer { p in
        foreground.withUnsafeBufferPointer { f in
        background.withUnsafeBufferPointer { b in
        alpha.withUnsafeBufferPointer { a in
        fOut.withUnsafeMutableBufferPointer { fo in
        bOut.withUnsafeMutableBufferPointer { bo in
            for i in 0..<n {
                let ai = a[i]
                let residual = p[i] - ai * f[i] - (1 - ai) * b[i]
                fo[i] = min(1, max(0, f[i] + ai * residual))
                bo[i] = min(1, max(0, b[i] + (1 - ai) * residual))
            }
        }}}}}}
        return (fOut, bOut)
    }
}
