import BoundedConcurrency

/// He, Sun & Tang's guided filter ("Guided Image Filtering", 2013) with a colour guide: the output
/// is locally an affine function of the photo's RGB, so a blurry saliency map takes on the photo's
/// real edges, including soft ones, without inventing structure where the photo is flat.
struct GuidedFilter: Sendable {
    /// Window radius in pixels of the guide.
    var radius: Int
    /// Regularisation (variance units of 0…1 colour): larger smooths more, smaller follows edges more.
    var epsilon: Float

    /// The filtered `input`. The independent window means of each step run in parallel child tasks.
    func apply(guide: ColorPlanes, input p: [Float]) async -> [Float] {
        let w = guide.width, h = guide.height, n = w * h
        precondition(p.count == n, "guide and input differ in size")
        let box = BoxFilter(width: w, height: h, radius: radius)
        let r = guide.red, g = guide.green, b = guide.blue
        let means = await box.means([r, g, b, p])
        let mr = means[0], mg = means[1], mb = means[2], mp = means[3]

        // Window means of the products of two planes.
        let pairs = [(r, p), (g, p), (b, p), (r, r), (r, g), (r, b), (g, g), (g, b), (b, b)]
        let moments = await concurrentMap(pairs) { box.mean($0.0, times: $0.1) }
        let (ar, ag, ab, bias) = Self.coefficients(means: (mr, mg, mb, mp), moments: consume moments, epsilon: epsilon)
        let smoothed = await box.means([ar, ag, ab, bias])
        var q = [Float](unsafeUninitializedCapacity: n) { _, count in count = n }
        q.withUnsafeMutableBufferPointer { out in
        r.withUnsafeBufferPointer { r in g.withUnsafeBufferPointer { g in b.withUnsafeBufferPointer { b in
        smoothed[0].withUnsafeBufferPointer { mar in smoothed[1].withUnsafeBufferPointer { mag in
        smoothed[2].withUnsafeBufferPointer { mab in smoothed[3].withUnsafeBufferPointer { mbias in
            for i in 0..<n { out[i] = mar[i] * r[i] + mag[i] * g[i] + mab[i] * b[i] + mbias[i] }
        }}}}}}}}
        return q
    }

    /// Per window: a = (Σ + εI)⁻¹ cov(I, p), b = mean(p) − a·mean(I), from the window means of I
    /// and p and of their products (moments: rp, gp, bp, rr, rg, rb, gg, gb, bb). The coefficients
    /// are written over the first four moments (each read at a pixel before it is overwritten there):
    /// four fewer fresh planes.
    static func coefficients(means: ([Float], [Float], [Float], [Float]), moments: consuming [[Float]],
                             epsilon eps: Float) -> ([Float], [Float], [Float], [Float]) {
        let n = means.0.count
        var ar: [Float] = [], ag: [Float] = [], ab: [Float] = [], bias: [Float] = []
        swap(&ar, &moments[0]); swap(&ag, &moments[1]); swap(&ab, &moments[2]); swap(&bias, &moments[3])
        withPointers(means.0, means.1, means.2, means.3) { mr, mg, mb, mp in
        withPointers(moments[4], moments[5], moments[6], moments[7]) { rg, rb, gg, gb in
        moments[8].withUnsafeBufferPointer { bb in
        ar.withUnsafeMutableBufferPointer { ar in ag.withUnsafeMutableBufferPointer { ag in
        ab.withUnsafeMutableBufferPointer { ab in bias.withUnsafeMutableBufferPointer { bias in
            for i in 0..<n {
                let rp = ar[i], gp = ag[i], bp = ab[i], rr = bias[i]
                let mri = mr[i], mgi = mg[i], mbi = mb[i], mpi = mp[i]
                let cr = rp - mri * mpi, cg = gp - mgi * mpi, cb = bp - mbi * mpi
                let s00 = rr - mri * mri + eps, s01 = rg[i] - mri * mgi, s02 = rb[i] - mri * mbi
                let s11 = gg[i] - mgi * mgi + eps, s12 = gb[i] - mgi * mbi, s22 = bb[i] - mbi * mbi + eps
                // Inverse of the symmetric 3×3 by cofactors.
                let c00 = s11 * s22 - s12 * s12, c01 = s02 * s12 - s01 * s22, c02 = s01 * s12 - s02 * s11
                let c11 = s00 * s22 - s02 * s02, c12 = s01 * s02 - s00 * s12, c22 = s00 * s11 - s01 * s01
                let det = s00 * c00 + s01 * c01 + s02 * c02
                let inv = det != 0 ? 1 / det : 0
                let a0 = (c00 * cr + c01 * cg + c02 * cb) * inv
                let a1 = (c01 * cr + c11 * cg + c12 * cb) * inv
                let a2 = (c02 * cr + c12 * cg + c22 * cb) * inv
                ar[i] = a0; ag[i] = a1; ab[i] = a2
                bias[i] = mpi - a0 * mri - a1 * mgi - a2 * mbi
            }
        }}}}}}}
        return (ar, ag, ab, bias)
    }
}

/// Calls `body` with the buffers of four arrays.
private func withPointers<R>(_ a: [Float], _ b: [Float], _ c: [Float], _ d: [Float],
                             _ body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>,
                                      UnsafeBufferPointer<Float>, UnsafeBufferPointer<Float>) -> R) -> R {
    a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in c.withUnsafeBufferPointer { c in
        d.withUnsafeBufferPointer { d in body(a, b, c, d) }
    }}}
}
