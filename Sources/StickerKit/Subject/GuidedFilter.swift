/// He, Sun & Tang's guided filter ("Guided Image Filtering", 2013) with a colour guide: the output
/// is locally an affine function of the photo's RGB, so a blurry saliency map takes on the photo's
/// real edges, including soft ones, without inventing structure where the photo is flat.
struct GuidedFilter: Sendable {
    /// Window radius in pixels of the guide.
    var radius: Int
    /// Regularisation (variance units of 0…1 colour): larger smooths more, smaller follows edges more.
    var epsilon: Float

    func apply(guide: ColorPlanes, input p: [Float]) -> [Float] {
        let w = guide.width, h = guide.height, n = w * h
        precondition(p.count == n, "guide and input differ in size")
        let box = BoxFilter(width: w, height: h, radius: radius)
        let r = guide.red, g = guide.green, b = guide.blue
        let mr = box.mean(r), mg = box.mean(g), mb = box.mean(b), mp = box.mean(p)

        func product(_ x: [Float], _ y: [Float]) -> [Float] {
            var out = [Float](repeating: 0, count: n)
            for i in 0..<n { out[i] = x[i] * y[i] }
            return box.mean(out)
        }
        // The window coefficients overwrite the means they are made from, pixel by pixel, and the
        // second-order moments are dropped before smoothing: fewer planes alive at once.
        var ar = product(r, p), ag = product(g, p), ab = product(b, p), bias = mp
        do {
            let rr = product(r, r), rg = product(r, g), rb = product(r, b)
            let gg = product(g, g), gb = product(g, b), bb = product(b, b)
            // Per window: a = (Σ + εI)⁻¹ cov(I, p), b = mean(p) − a·mean(I).
            let eps = epsilon
            for i in 0..<n {
                let mri = mr[i], mgi = mg[i], mbi = mb[i], mpi = mp[i]
                let cr = ar[i] - mri * mpi, cg = ag[i] - mgi * mpi, cb = ab[i] - mbi * mpi
                let s00 = rr[i] - mri * mri + eps, s01 = rg[i] - mri * mgi, s02 = rb[i] - mri * mbi
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
        }
        let mar = box.mean(ar), mag = box.mean(ag), mab = box.mean(ab), mbias = box.mean(bias)
        var q = [Float](repeating: 0, count: n)
        for i in 0..<n { q[i] = mar[i] * r[i] + mag[i] * g[i] + mab[i] * b[i] + mbias[i] }
        return q
    }
}
