import Raster

/// A frame's alpha corrected with the background plate seen in that frame (`BackgroundPlate`):
///
/// 1. `removing`: where the frame shows the plate (its colour within the frame's own noise over
///    a 3×3 patch, or outside the followed subject in the pixel itself), the pixel is background,
///    whatever the network said: a salient thing fixed in the scene (a flower of the background
///    photo) leaves the subject pixel by pixel, even where it touches it. The plate is laid only
///    from samples where the subject was elsewhere, so a match is the background itself; but a
///    patch of the subject coloured as the background behind it would match by chance, so what
///    would open a hole inside the followed subject (cleared pixels not reaching the frame's border
///    through background) is given back.
/// 2. `composited`: in the edge band, the compositing equation I = αF + (1−α)B solved for α, with
///    B the plate and F the local foreground colour, α = (I−B)·(F−B)/|F−B|², where F and B differ
///    enough for it to be trusted (else the network's alpha stays).
/// 3. `filled`: a region below ½ that the subject encloses and that shows no plate is a dark part
///    of the subject the network's look dipped on (a face's mouth), filled whole.
///
/// Clearing pixel by pixel leaves crumbs where a textured background's match falls just outside the
/// tolerance (a background flower's petals): parts of the alpha cut apart that are far smaller than
/// the subject, and joined to it before the clearing (`crumbShare`), go too.
///
/// The frame's noise is measured on the frame itself (the median residual over confident
/// background), so a plate that does not fit a frame (a scene that changed, a motion that is no
/// translation) shows as a large noise and the frame keeps today's alpha.
public struct PlateMatte: Sendable, Hashable, Codable {
    /// A 3×3 patch whose mean residual is within this many times the frame's noise shows the plate.
    public var matchFactor: Float = 2.5
    /// Outside the followed subject, a pixel whose own residual is within this many times the
    /// patch's tolerance shows the plate too (0: patches only). Beside a thing that differs, a
    /// background pixel's patch takes in its neighbour's residual: the petals of a background
    /// flower joined to the subject hovered about the tolerance and stayed, frame after frame
    /// another few (shared set d01: alpha error 0.0335 → 0.0275, flicker 0.0244 → 0.0220; no clip
    /// worse). Inside the followed subject only patches clear: a subject's pixel coloured as the
    /// plate behind it is likelier there than background.
    public var pixelMatch: Float = 1
    /// How far (px) the plate may be misplaced: the match tolerates this much of its local gradient.
    public var misplacement: Float = 0.3
    /// F and B at least this far apart (RGB distance / √3, 0…1), and 4× the noise, for α = … to be trusted.
    public var minimumContrast: Float = 0.1
    /// The edge band: today's soft alpha grown by this many pixels.
    public var bandReach = 2
    /// Frames noisier than this against the plate (0…1) keep today's alpha: the plate does not fit them.
    public var maximumNoise: Float = 0.05
    /// The neighbourhood (radius, px) whose background side must match the plate, on average
    /// within this many times the noise, for the edge's alpha to be solved there.
    public var fitRadius = 5
    public var fitFactor: Float = 2
    /// After clearing, the parts of the alpha (above ½, 8-connected) smaller than this share of the
    /// largest part are background too, with their soft rim (0: kept).
    public var crumbShare: Float = 0.05
    /// Solved alphas this close to 0 or 1 snap to them (noise, and a textured subject's colour
    /// around its local mean F, would otherwise leave the ends ragged).
    public var snap: Float = 0.04
    /// Outside the followed subject, a patch whose residual is above the clearing's tolerance but
    /// below this many times it is background in part: its final alpha is scaled by how far the
    /// residual is along that ramp (`fading`), instead of kept whole. A cut at the tolerance flips
    /// with each frame's noise where a textured background's match hovers about it (the plate's
    /// flower petals): the ramp makes that decision steady from frame to frame (1: no ramp).
    public var clearingRamp: Float = 2
    /// Where the plate is unknown (or no plate was laid), B is taken from the confident background
    /// within `localRadius` px (its mean), where that background is smooth (it fits its own mean
    /// as the plate must fit: `fitRadius`, `fitFactor`), in the edge band grown by `localReach`.
    public var solvesLocally = true
    public var localRadius = 6
    public var localReach = 2
    /// A part of the subject the network missed (a spade's thin handle) differs from the plate by
    /// far more than the clearing's tolerance: the pixels that differ by more than this many times
    /// it, and reach the followed subject through such pixels, are subject too (0: never); those
    /// within 2 px of the alpha's edge are left to the compositing solve (its mixed pixels differ
    /// too). At most `restoredShare` of the subject's area is given: more is no missed part but
    /// something else the plate does not show, such as a post in front moving at its own pace
    /// (at 0.5 the dev set's c10 took its post in: docs/benchmarks.md); nothing is given then.
    /// The subject's area is the frame's followed subject, or `subjectArea` when larger (the
    /// clip's largest: a frame whose look saw less of the subject gives back as much), up to a
    /// quarter more than the frame's own.
    public var restoresBeyond: Float = 3
    public var restoredShare: Float = 0.15
    /// How far (px) the plate may be misplaced in the tolerance the giving back goes beyond: a
    /// quarter of the clearing's `misplacement` (the plate is placed to an eighth of a pixel).
    /// With the clearing's whole 0.3 px, tripled, a grass blade's edge behind a spade's handle
    /// took the handle's pixels for a misplaced plate and cut it apart from the spade: the shared
    /// set's d02 lost its handle in 12 of its 30 frames, flickering in and out (now 3 whole, 3 in
    /// part; docs/benchmarks.md).
    public var restoringMisplacement: Float = 0.075
    /// Cleared pixels enclosed by the subject stay cleared, a hole through it (a wheel's spokes),
    /// when they number at least `holeArea`, their residual is on average within `holeMatch` times
    /// the frame's noise, and the plate explains them better than their own mean colour does: the
    /// mean distance of their colours from that mean exceeds their mean residual by `holeGain`
    /// times the noise. Only the background seen through follows the plate's texture, however
    /// faint (a storm's sky, a shade of wood); a flat patch of the subject in the plate's colour
    /// does not (its pixels sit at their own mean, the plate's texture around it), and over a plain
    /// plate (a clipped white sky, a wall) a hole and such a patch look alike, and it comes back (a
    /// white ball over an overexposed sky lost the white between its spots without this: IoU 0.996
    /// → 0.36). So does a patch matching less closely (over 3× the noise; the dev set's wheel's
    /// holes over grass match at 1.1–1.7×, an outlined letter's inside over wood, the codec
    /// smearing the outline's black into it, at 2–3×: wide set w07, alpha error 0.057 → 0.025
    /// with 3 rather than 2, flicker 0.89× → 0.51× of the peer's, the dev and shared sets
    /// unchanged). Dev set c06, that wheel over grass, sea and sky: flicker 0.84× → 0.60× of the
    /// peer's with the steepened edges (`edgeSteepness`; docs/benchmarks.md). The gain replaced a
    /// rule asking the plate for texture (3× the noise, root mean square): an ASL hand drawn in
    /// outline over a storm's smooth sky (wide set seed 31, w03) filled and opened frame by frame,
    /// IoU 0.49, flicker 0.99× of the peer's; with the gain 0.81, 0.40×. A hole the compression
    /// smears with the subject's colours (c16: 3–4× the noise) stays filled. `holeMatch` 0: every
    /// enclosed region comes back.
    public var holeMatch: Float = 3
    public var holeArea = 16
    public var holeGain: Float = 0.25
    /// Over a textured ground a hole may match less closely, within this many times the noise,
    /// when it matches within half its colours' own spread: the codec rings around an outline's
    /// black and lifts its inside's residual to 3.5–5.7× the noise the ground away from it shows
    /// (wide set seed 31, w01: an ASL hand over wood, IoU 0.53 → 0.60, flicker 1.01× → 0.87× of
    /// the peer's). A patch 6/255 off the plate behind it (3.5×) over a texture of ~5/255 stays
    /// the subject's (0: no such rule).
    public var holeTexturedMatch: Float = 6
    /// A region of the final alpha at or below ½ that the subject encloses, where the plate is
    /// known and no pixel shows it (nor does it match it as a hole does: `holeMatch`), is a dark
    /// part of the subject the network's look dipped on (a face's mouth and eyes), not a hole:
    /// filled whole, with its soft rim, when smaller than this share of the alpha above ½ (0: left
    /// as solved). The compositing solve had the subject's own colours on both sides of
    /// it and left a ring of low alpha round its middle, changing with every frame.
    public var enclosedFill: Float = 0.15
    /// A hole grows through the pixels beside it whose 3×3 patch is within this many times the
    /// clearing's noise term (`matchFactor` × noise, plus its `misplacement` term): the codec
    /// smears an outline's black into the ground seen through it, and the pixels it lifts past
    /// the clearing's tolerance stayed as blotches of subject inside an outlined hand over wood,
    /// a different few each frame (wide set seed 31, w01: IoU 0.59 → 0.66, flicker 0.87× → 0.69×
    /// of the peer's). A hole whose growth leaks into the subject (a wheel's grey tyre beside its
    /// spokes' holes over grass: dev set c06) keeps none of it (`grownHoles`). 1 or less: no growth.
    public var holeGrowth: Float = 3

    public init() {}

    /// The per-pixel residual |I − B| (RGB distance / √3), 1 where the plate is unknown.
    static func residual(_ image: ColorPlanes, _ background: ColorPlanes, known: [Bool]) -> [Float] {
        var out = [Float](repeating: 1, count: known.count)
        for i in known.indices where known[i] {
            let dr = image.red[i] - background.red[i], dg = image.green[i] - background.green[i], db = image.blue[i] - background.blue[i]
            out[i] = ((dr * dr + dg * dg + db * db) / 3).squareRoot()
        }
        return out
    }

    /// Step 1: `alpha` with the pixels that show the plate cleared; nil when the plate does not fit
    /// this frame (too little of it seen, or the frame too far from it). Also the frame's noise
    /// and residual, the clearing's ramp (`clearingRamp`; nil: nothing on it) for `faded`, and
    /// which pixels show the plate (cleared wherever the alpha had some) for `filled`.
    /// `subject`: where the followed subject is (its interior is protected from holes, and not faded).
    func removing(alpha: [Float], image: ColorPlanes, background: ColorPlanes, known: [Bool], subject: [Bool], subjectArea: Int = 0)
        -> (alpha: [Float], noise: Float, residual: [Float], fading: [Float]?, showsPlate: [Bool])? {
        let w = image.width, h = image.height
        let residual = Self.residual(image, background, known: known)
        // The frame's noise: the median residual where the network is sure of background.
        var quiet = [Float]()
        for i in Swift.stride(from: 0, to: residual.count, by: 3) where known[i] && alpha[i] < 0.02 { quiet.append(residual[i]) }
        guard quiet.count >= max(200, w * h / 60) else { return nil }
        let noise = max(1 / 255, BackgroundPlate.select(&quiet, quiet.count / 2))
        guard noise <= maximumNoise else { return nil }
        let box = BoxFilter(width: w, height: h, radius: 1)
        let patch = box.mean(residual)
        // Where the background has strong edges, a placement off by a fraction of a pixel (and the
        // plate's own interpolation) leaves a residual that is no subject: tolerated in proportion.
        let slope = box.mean(Self.gradient(background, known: known))
        func tolerance(_ i: Int) -> Float { matchFactor * noise + misplacement * slope[i] }
        var out = alpha, cleared = [Int](), fading: [Float]?
        // Every pixel the clearing would take for the plate, whatever its alpha (for `filled`).
        let showsPlate = out.indices.map { i in
            patch[i] <= tolerance(i) || (pixelMatch > 0 && !subject[i] && residual[i] <= pixelMatch * tolerance(i))
        }
        for i in out.indices where out[i] > 0 {
            if showsPlate[i] {
                out[i] = 0
                cleared.append(i)
            } else if clearingRamp > 1, !subject[i], patch[i] < clearingRamp * tolerance(i) {
                if fading == nil { fading = [Float](repeating: 1, count: out.count) }
                fading?[i] = (patch[i] - tolerance(i)) / ((clearingRamp - 1) * tolerance(i))
            }
        }
        if !cleared.isEmpty {
            // Cleared pixels of the subject's interior (their background region never reaches the
            // border) come back, unless they make a hole (`holeMatch`): else a patch of the subject
            // coloured as the background behind it.
            let outside = ConnectedComponents(Plane(width: w, height: h, values: out), threshold: 0.5, inverted: true)
            let holes = self.holes(outside, cleared: cleared, residual: residual, image: image, noise: noise)
            for i in cleared where subject[i] {
                let label = outside.labels[i]
                if label >= 0 && !outside.touchesBorder[Int(label)] && !holes[Int(label)] { out[i] = alpha[i] }
            }
            if holeGrowth > 1, holes.contains(true) {
                out = grownHoles(out, holes: holes, outside: outside, patch: patch, residual: residual, image: image, noise: noise,
                                 known: known, tolerance: { holeGrowth * matchFactor * noise + misplacement * slope[$0] })
            }
            out = withoutCrumbs(out, before: alpha, width: w, height: h)
        }
        // After the crumbs: a given-back part stands 2 px off the subject's edge, and would be one.
        out = restored(out, residual: residual, image: image, background: background,
                       tolerance: { matchFactor * noise + restoringMisplacement * slope[$0] },
                       clearing: tolerance, known: known,
                       subject: subject, subjectArea: subjectArea, width: w, height: h)
        return (out, noise, residual, fading, showsPlate)
    }

    /// `alpha` with each hole (`holes`) grown through the pixels next to it (8-connected) whose
    /// patch residual is within `tolerance` (`holeGrowth`), never into another region (one given
    /// back stays given). A hole keeps none of its growth when that grows by more pixels than the
    /// hole has, reaches the background around the subject (it broke out: a notch, not a hole),
    /// or does not follow the plate's texture as a hole's pixels do (`matchesPlate`: a flat
    /// patch of the subject near the plate's colour beside a hole is no smeared ground).
    func grownHoles(_ alpha: [Float], holes: [Bool], outside: ConnectedComponents, patch: [Float], residual: [Float],
                    image: ColorPlanes, noise: Float, known: [Bool], tolerance: (Int) -> Float) -> [Float] {
        let w = outside.width, h = outside.height
        var out = alpha, owner = [Int32](repeating: -1, count: alpha.count), queue = [Int]()
        var area = [Int](repeating: 0, count: holes.count), grown = [[Int]](repeating: [], count: holes.count)
        var leaked = [Bool](repeating: false, count: holes.count)
        for i in alpha.indices {
            let label = Int(outside.labels[i])
            if label >= 0 && holes[label] { queue.append(i); owner[i] = Int32(label); area[label] += 1 }
        }
        var head = 0
        while head < queue.count {
            let i = queue[head]; head += 1
            let x = i % w, y = i / w, hole = Int(owner[i])
            for dy in -1...1 where y + dy >= 0 && y + dy < h {
                for dx in -1...1 where x + dx >= 0 && x + dx < w {
                    let j = i + dy * w + dx
                    let label = Int(outside.labels[j])
                    // A grown pixel beside the background around the subject: the hole has broken out.
                    if label >= 0 && outside.touchesBorder[label] && outside.labels[i] < 0 { leaked[hole] = true }
                    guard owner[j] < 0, label < 0, out[j] > 0, known[j], patch[j] <= tolerance(j) else { continue }
                    owner[j] = Int32(hole)
                    grown[hole].append(j)
                    out[j] = 0
                    queue.append(j)
                }
            }
        }
        for l in holes.indices where !grown[l].isEmpty && !leaked[l] {
            // No `holeMatch` bound: the growth's own tolerance bounds these pixels' residual (the codec lifted them past it).
            if grown[l].count > area[l] || !matchesPlate(grown[l], residual: residual, image: image, noise: noise, within: nil) {
                leaked[l] = true
            }
        }
        for l in holes.indices where leaked[l] {
            for i in grown[l] { out[i] = alpha[i] }
        }
        return out
    }

    /// Whether `pixels` (of one region) match the plate as a hole's do: closer to it than to their
    /// own mean colour by `holeGain` times the noise on average, their residual within `bound`
    /// times the noise on average (nil: any); or, over a texture, within `holeTexturedMatch` times
    /// the noise and half their own spread. The plate explains a hole's pixels better than their
    /// own mean colour does: only the background seen through follows the plate's texture.
    func matchesPlate(_ pixels: [Int], residual: [Float], image: ColorPlanes, noise: Float, within bound: Float?) -> Bool {
        guard !pixels.isEmpty else { return true }
        var sum: Float = 0, mean = SIMD3<Float>.zero
        for i in pixels {
            sum += residual[i]
            mean += SIMD3(image.red[i], image.green[i], image.blue[i])
        }
        mean /= Float(pixels.count)
        // The pixels' distance from their own mean colour, as the residual measures it (RGB / √3).
        var spread: Float = 0
        for i in pixels {
            let d = SIMD3(image.red[i], image.green[i], image.blue[i]) - mean
            spread += ((d * d).sum() / 3).squareRoot()
        }
        let n = Float(pixels.count)
        if sum <= holeTexturedMatch * noise * n && 2 * sum < spread { return true }
        return sum <= (bound ?? .infinity) * noise * n && spread - sum >= holeGain * noise * n
    }

    /// `alpha` with the regions at or below ½ that the subject encloses filled (`enclosedFill`):
    /// the plate known at each of their pixels and shown by none (`showsPlate`: what the clearing
    /// takes for it), and no hole by `holes`' measure (a hole whose colours the codec lifted just
    /// beyond the clearing's tolerance still matches the plate that closely on average).
    /// `residual`, `noise`: `removing`'s.
    func filled(_ alpha: [Float], showsPlate: [Bool], known: [Bool], residual: [Float], image: ColorPlanes, noise: Float) -> [Float] {
        guard enclosedFill > 0 else { return alpha }
        let w = image.width, h = image.height
        let outside = ConnectedComponents(Plane(width: w, height: h, values: alpha), threshold: 0.5, inverted: true)
        let regions = outside.areas.count
        guard regions > 0 else { return alpha }
        // Measured against all of the alpha above ½ (the subject, with anything else kept).
        let subjectArea = alpha.count - outside.areas.reduce(0, +)
        var fills = (0..<regions).map { !outside.touchesBorder[$0] && Float(outside.areas[$0]) < enclosedFill * Float(subjectArea) }
        var candidates = [Int]()
        for i in alpha.indices {
            let label = Int(outside.labels[i])
            guard label >= 0 && fills[label] else { continue }
            if !known[i] || showsPlate[i] { fills[label] = false } else { candidates.append(i) }
        }
        guard fills.contains(true) else { return alpha }
        let holes = self.holes(outside, cleared: candidates, residual: residual, image: image, noise: noise)
        for l in 0..<regions where holes[l] { fills[l] = false }
        guard fills.contains(true) else { return alpha }
        // The region's soft rim (above ½, within 2 px) goes with it, unless it lies 3 px or less
        // from a region left as it is (the subject's outer background, a hole), whose mix is its own.
        let filling = outside.labels.map { $0 >= 0 && fills[Int($0)] ? Float(1) : 0 }
        let rim = ClipSubjectTracker.grown(Plane(width: w, height: h, values: filling), by: 2)
        let kept = ClipSubjectTracker.grown(Plane(width: w, height: h, values: outside.labels.map {
            $0 >= 0 && !fills[Int($0)] ? Float(1) : 0 }), by: 3)
        var out = alpha
        for i in out.indices where filling[i] > 0 || (rim[i] && outside.labels[i] < 0 && !kept[i] && !showsPlate[i]) { out[i] = 1 }
        return out
    }

    /// Which regions of `outside` (the cleared alpha's background, by label) are holes through the
    /// subject (`holeMatch`): enclosed, at least `holeArea` cleared pixels, and those pixels match
    /// the plate (`matchesPlate`, within `holeMatch` times the frame's noise on average).
    func holes(_ outside: ConnectedComponents, cleared: [Int], residual: [Float], image: ColorPlanes, noise: Float) -> [Bool] {
        let regions = outside.areas.count
        guard holeMatch > 0 else { return [Bool](repeating: false, count: regions) }
        var pixels = [[Int]](repeating: [], count: regions)
        for i in cleared {
            let label = Int(outside.labels[i])
            if label >= 0 && !outside.touchesBorder[label] { pixels[label].append(i) }
        }
        return pixels.map { region in
            region.count >= max(1, holeArea) && matchesPlate(region, residual: residual, image: image, noise: noise, within: holeMatch)
        }
    }

    /// `alpha` with the subject's missed parts given back (`restoresBeyond`): from the followed
    /// subject's pixels, through 8-connected pixels far from the known plate (each pixel's own
    /// residual: a 3×3 patch reaches a pixel past the subject's edge and would grow it all round).
    func restored(_ alpha: [Float], residual: [Float], image: ColorPlanes, background: ColorPlanes, tolerance: (Int) -> Float,
                  clearing: (Int) -> Float, known: [Bool], subject: [Bool], subjectArea: Int = 0,
                  width w: Int, height h: Int) -> [Float] {
        guard restoresBeyond > 0 else { return alpha }
        var queue = [Int](), seen = [Bool](repeating: false, count: alpha.count)
        for i in alpha.indices where subject[i] && alpha[i] >= 0.5 { queue.append(i); seen[i] = true }
        // The clip's subject counts, but at most a quarter over the frame's own: one look of a
        // subject zoomed in (or joined to something salient) must not lift every frame's cap.
        let seeds = queue.count, limit = Int(restoredShare * Float(min(max(seeds, subjectArea), seeds + seeds / 4)))
        guard seeds > 0 else { return alpha }
        // The edge's own mixed pixels differ from the plate too: passed through, left to the compositing solve.
        let edge = ClipSubjectTracker.grown(Plane(width: w, height: h, values: alpha.map { $0 > 0.01 ? 1 : 0 }), by: 2)
        var head = 0, added = [Int]()
        while head < queue.count {
            let i = queue[head]; head += 1
            let x = i % w, y = i / w
            for dy in -1...1 where y + dy >= 0 && y + dy < h {
                for dx in -1...1 where x + dx >= 0 && x + dx < w {
                    let j = i + dy * w + dx
                    guard !seen[j] else { continue }
                    seen[j] = true
                    guard alpha[j] < 0.5, known[j], residual[j] > restoresBeyond * tolerance(j) else { continue }
                    // Within the clearing's own tolerance, tripled, a pixel whose patch shows the
                    // plate darkened is a shadow the subject casts on textured ground, not a part of it.
                    if residual[j] <= restoresBeyond * clearing(j),
                       Self.showsShade(of: background, in: image, at: j, known: known, tolerance: tolerance(j)) { continue }
                    queue.append(j)
                    guard !edge[j] else { continue }
                    added.append(j)
                    if added.count > limit { return alpha }
                }
            }
        }
        guard !added.isEmpty else { return alpha }
        var out = alpha
        for j in added { out[j] = 1 }
        return out
    }

    /// Whether the patch around pixel `i` (3×3) shows the plate darkened, its texture kept: a
    /// shadow cast on the ground. Some k in 0.25…1 takes the plate's patch to the frame's within
    /// `tolerance` (RGB distance / √3, root mean square). A part of the subject hides the ground's
    /// texture instead, however its colour compares.
    static func showsShade(of background: ColorPlanes, in image: ColorPlanes, at i: Int, known: [Bool], tolerance: Float) -> Bool {
        let w = image.width, h = image.height, x = i % w, y = i / w
        var pb: Float = 0, bb: Float = 0, pp: Float = 0, n: Float = 0
        for py in max(0, y - 1)...min(h - 1, y + 1) {
            for px in max(0, x - 1)...min(w - 1, x + 1) {
                let j = py * w + px
                guard known[j] else { continue }
                let b = SIMD3(background.red[j], background.green[j], background.blue[j])
                let p = SIMD3(image.red[j], image.green[j], image.blue[j])
                pb += (p * b).sum(); bb += (b * b).sum(); pp += (p * p).sum(); n += 1
            }
        }
        guard bb > 1e-6, n > 0 else { return false }
        let k = pb / bb
        guard k >= 0.25, k < 1 else { return false }
        // Σ|p − k b|² = Σp² − 2kΣp·b + k²Σb², with k = Σp·b / Σb²: Σp² − k Σp·b.
        return (max(0, pp - k * pb) / (3 * n)).squareRoot() <= tolerance
    }

    /// `alpha` scaled by the clearing's ramp (`removing`'s `fading`), once every solve is done (a
    /// solve would otherwise take the faded pixels for an edge and solve them back).
    static func faded(_ alpha: [Float], by fading: [Float]?) -> [Float] {
        guard let fading else { return alpha }
        var out = alpha
        for i in out.indices { out[i] *= fading[i] }
        return out
    }

    /// `alpha` without the crumbs the clearing left: its parts (above ½) smaller than `crumbShare` of
    /// the largest that were not parts of their own before the clearing (`before`: a part the network
    /// saw apart stays), and their soft rim (within 2 px of them, farther than 3 px from a kept part).
    func withoutCrumbs(_ alpha: [Float], before: [Float], width w: Int, height h: Int) -> [Float] {
        guard crumbShare > 0 else { return alpha }
        let parts = ConnectedComponents(Plane(width: w, height: h, values: alpha), threshold: 0.5)
        guard parts.areas.count > 1, let largest = parts.areas.max() else { return alpha }
        var small = parts.areas.map { Float($0) < crumbShare * Float(largest) }
        guard small.contains(true) else { return alpha }
        // A small part whose pixels were a small part before the clearing too is the network's own.
        let old = ConnectedComponents(Plane(width: w, height: h, values: before), threshold: 0.5)
        let oldLargest = old.areas.max() ?? 0
        for i in parts.labels.indices where parts.labels[i] >= 0 && small[Int(parts.labels[i])] {
            let label = old.labels[i]
            if label >= 0 && Float(old.areas[Int(label)]) < crumbShare * Float(oldLargest) { small[Int(parts.labels[i])] = false }
        }
        guard small.contains(true) else { return alpha }
        var crumbs = [Float](repeating: 0, count: w * h), kept = crumbs
        for i in parts.labels.indices where parts.labels[i] >= 0 {
            if small[Int(parts.labels[i])] { crumbs[i] = 1 } else { kept[i] = 1 }
        }
        let rim = ClipSubjectTracker.grown(Plane(width: w, height: h, values: crumbs), by: 2)
        let near = ClipSubjectTracker.grown(Plane(width: w, height: h, values: kept), by: 3)
        var out = alpha
        for i in out.indices where rim[i] && !near[i] { out[i] = 0 }
        return out
    }

    /// The colour gradient's size per pixel (largest channel, central differences), 0 where unknown.
    static func gradient(_ planes: ColorPlanes, known: [Bool]) -> [Float] {
        let w = planes.width, h = planes.height
        var out = [Float](repeating: 0, count: w * h)
        guard w > 2, h > 2 else { return out }
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                let i = y * w + x
                guard known[i - 1], known[i + 1], known[i - w], known[i + w] else { continue }
                func size(_ p: [Float]) -> Float { (abs(p[i + 1] - p[i - 1]) + abs(p[i + w] - p[i - w])) * 0.5 }
                out[i] = max(size(planes.red), size(planes.green), size(planes.blue))
            }
        }
        return out
    }

    /// Step 2: `alpha` solved from the compositing equation in its edge band, where F and B differ
    /// enough and the plate fits the frame around the pixel (the background side of its
    /// neighbourhood matches the plate: no parallax, zoom or change of light there).
    func composited(alpha: [Float], image: ColorPlanes, foreground: ColorPlanes, background: ColorPlanes,
                    known: [Bool], noise: Float, residual: [Float], reach: Int? = nil) -> [Float] {
        let w = image.width, h = image.height
        let soft = Plane(width: w, height: h, values: alpha.map { $0 > 0.01 && $0 < 0.99 ? 1 : 0 })
        let band = ClipSubjectTracker.grown(soft, by: reach ?? bandReach)
        let ground = alpha.indices.map { known[$0] && alpha[$0] < 0.02 ? Float(1) : 0 }
        let box = BoxFilter(width: w, height: h, radius: fitRadius)
        let groundShare = box.mean(ground), groundResidual = box.mean(residual, times: ground)
        let contrast = max(minimumContrast, 4 * noise), fitLimit = fitFactor * noise
        var out = alpha
        for i in out.indices where band[i] && known[i] {
            guard groundShare[i] >= 0.05, groundResidual[i] <= fitLimit * groundShare[i] else { continue }
            let fb = SIMD3(foreground.red[i] - background.red[i], foreground.green[i] - background.green[i],
                           foreground.blue[i] - background.blue[i])
            let length2 = (fb * fb).sum()
            guard length2 >= 3 * contrast * contrast else { continue }
            let ib = SIMD3(image.red[i] - background.red[i], image.green[i] - background.green[i], image.blue[i] - background.blue[i])
            let a = (ib * fb).sum() / length2
            // Noise around 0 and 1 snaps to them (a clamp alone would bias both ends inwards).
            out[i] = a < snap ? 0 : a > 1 - snap ? 1 : a
        }
        return out
    }

    /// The compositing equation solved where the plate does not say what is behind the edge
    /// (`skip`: pixels it solved): B is the mean of the confident background within `localRadius`,
    /// trusted only where that background is smooth (a plain wall, sky, a gradient: its pixels
    /// within `fitFactor` times the frame's fine noise of their own local mean), as with the plate.
    func locallyComposited(alpha: [Float], image: ColorPlanes, foreground: ColorPlanes, skip: [Bool]?) -> [Float] {
        guard solvesLocally else { return alpha }
        let w = image.width, h = image.height, n = w * h
        let ground = alpha.map { $0 < 0.02 ? Float(1) : 0 }
        let box = BoxFilter(width: w, height: h, radius: localRadius)
        let share = box.mean(ground)
        let channels = [image.red, image.green, image.blue].map { box.mean($0, times: ground) }
        var local = ColorPlanes(width: w, height: h, red: channels[0], green: channels[1], blue: channels[2])
        var known = [Bool](repeating: false, count: n)
        for i in 0..<n where share[i] >= 0.05 && !(skip?[i] ?? false) {
            let k = 1 / share[i]
            local.red[i] *= k; local.green[i] *= k; local.blue[i] *= k
            known[i] = true
        }
        let residual = Self.residual(image, local, known: known)
        // The frame's fine noise: each confident background pixel against its 3×3 mean, the median.
        let fine = BoxFilter(width: w, height: h, radius: 1)
        let smooth = ColorPlanes(width: w, height: h, red: fine.mean(image.red), green: fine.mean(image.green), blue: fine.mean(image.blue))
        var quiet = [Float]()
        for i in Swift.stride(from: 0, to: n, by: 3) where ground[i] > 0 {
            let dr = image.red[i] - smooth.red[i], dg = image.green[i] - smooth.green[i], db = image.blue[i] - smooth.blue[i]
            quiet.append(((dr * dr + dg * dg + db * db) / 3).squareRoot())
        }
        guard quiet.count >= 200 else { return alpha }
        let noise = max(1 / 255, BackgroundPlate.select(&quiet, quiet.count / 2))
        guard noise <= maximumNoise else { return alpha }
        return composited(alpha: alpha, image: image, foreground: foreground, background: local, known: known,
                          noise: noise, residual: residual, reach: localReach)
    }
}
