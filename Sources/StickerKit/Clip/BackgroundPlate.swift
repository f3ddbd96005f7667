import BoundedConcurrency
import Raster

/// The background of a clip whose camera pans, seen whole: a "clean plate" in the first frame's
/// coordinates, as video matting with a moving camera uses one.
///
/// Built from a few frames spread over the piece (`Samples`), each laid where the background's
/// motion puts it (`MovingSubjectCheck`'s block matching, then refined here against the plate
/// itself to an eighth of a pixel). Each plate pixel is the per-channel median of the samples that
/// saw it with the subject elsewhere (the tracked subject, grown, is left out of each sample), so a
/// subject that stays still for a while is never taken for background: where too few samples saw
/// the background, or those that did disagree (water, leaves, something that came and went), the
/// plate is unknown and the cut-out keeps the network's word there (`PlateMatte`).
struct BackgroundPlate: Sendable {
    /// A frame kept to build the plate.
    struct Sample: Sendable {
        var frame: ColorPlanes
        /// Where the background sits: a point `p` of the first frame's background is at `p + offset` here (px).
        var offset: SIMD2<Float>
        /// Where the subject may be (left out), at the frame's size.
        var subject: [Bool]
    }

    /// At most `capacity` frames spread evenly over a piece of unknown length: every `stride`-th
    /// frame offered is kept, and when too many are, every other one goes and the stride doubles
    /// (so between `capacity / 2` and `capacity` remain, whatever the piece's length).
    struct Samples {
        let capacity: Int
        private(set) var kept: [(index: Int, sample: Sample)] = []
        private(set) var stride = 1

        init(capacity: Int = 16) { self.capacity = max(2, capacity) }

        /// Whether the frame at `index` would be kept (ask before making its sample).
        func wants(_ index: Int) -> Bool { index % stride == 0 }

        mutating func add(_ sample: Sample, index: Int) {
            guard wants(index) else { return }
            kept.append((index, sample))
            if kept.count > capacity {
                stride *= 2
                kept.removeAll { $0.index % stride != 0 }
            }
        }

        var samples: [Sample] { kept.map(\.sample) }
    }

    let width: Int, height: Int
    /// The first frame's point (0, 0) is the plate's (`originX`, `originY`).
    let originX: Int, originY: Int
    /// The background's colours (0…1), where `known`.
    let color: ColorPlanes
    let known: [Bool]
    /// A background pixel's typical spread from sample to sample (median absolute deviation, 0…1).
    let spread: Float
    /// `color` interleaved (red, green, blue, 0) per pixel, for `align`'s and `background`'s reads:
    /// one array instead of three planes and four `known` flags per bilinear sample.
    private let texels: [SIMD4<Float>]
    /// Whether the plate pixels (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1) are all known
    /// (false on the last row and column).
    private let cornersKnown: [Bool]

    init(width: Int, height: Int, originX: Int, originY: Int, color: ColorPlanes, known: [Bool], spread: Float) {
        self.width = width; self.height = height; self.originX = originX; self.originY = originY
        self.color = color; self.known = known; self.spread = spread
        texels = (0..<(width * height)).map { SIMD4(color.red[$0], color.green[$0], color.blue[$0], 0) }
        var corners = [Bool](repeating: false, count: width * height)
        for y in 0..<max(0, height - 1) {
            for x in 0..<max(0, width - 1) {
                let i = y * width + x
                corners[i] = known[i] && known[i + 1] && known[i + width] && known[i + width + 1]
            }
        }
        cornersKnown = corners
    }

    /// The plate of `samples` (all at one size); nil when there are too few to tell the background.
    /// `agreeing`: samples that must have seen the background at a pixel for it to be known (a clip
    /// passes `ClipSubjectTracker.Settings.plateAgreeing`, 2; 3 here, the stricter rule the scenery
    /// tests pin their "without the spreading" case to).
    /// `spreadsScenery`: scenery told apart in some samples (`withoutScenery`) is looked for, by
    /// its colour, in the samples where it is joined to the subject too (`withSceneryShown`).
    /// `zoneReach`: how far (px) each sample's subject zone was grown around the subject (its rim
    /// is background, and says nothing of whether a region is scenery).
    static func build(_ samples: [Sample], agreeing: Int = 3, spreadsScenery: Bool = true, zoneReach: Int = 0) async -> BackgroundPlate? {
        guard samples.count >= max(3, agreeing) else { return nil }
        let cleared = withoutScenery(samples, zoneReach: zoneReach)
        // The block matching placed each sample to ~0.1 px at 256 px; against the plate itself,
        // at full size, they land to an eighth of a pixel and the plate is laid again, sharper.
        guard let rough = await laid(cleared, agreeing: agreeing) else { return nil }
        // Each sample aligned in a child task (independent; one core's ~0.15 s for d01's 16 otherwise).
        var aligned = await concurrentMap(cleared) { sample in
            var placed = sample
            placed.offset = rough.align(sample.frame, exclude: sample.subject, near: sample.offset)
            return placed
        }
        if spreadsScenery {
            aligned = await withSceneryShown(aligned, before: samples.map(\.subject), noise: rough.spread)
        }
        return await laid(aligned, agreeing: agreeing)
    }

    /// How close (times the plate's spread, plus a share of the scenery's own gradient for a
    /// misplacement) a 3×3 patch must be to the scenery's colour to show the scenery.
    static let sceneryMatch: (factor: Float, misplacement: Float) = (4, 0.5)

    /// `samples` (placed) with the scenery that `withoutScenery` found in some of them (the pixels
    /// of `before`, their subjects before it, that it left to the background) shown in all: the
    /// scenery's colours are laid in the first frame's coordinates from the samples where it was
    /// apart, and in every sample the pixels of the subject's zone whose 3×3 patch matches them
    /// (within `sceneryMatch` of the plate's `noise`) are that scenery again, joined to the subject
    /// there, and go to the background. A subject in front of the scenery differs from it and stays.
    /// Without this a distractor apart from the subject in fewer samples than the plate needs to
    /// agree stays unknown in the plate, and joined to the subject in the cut-out.
    static func withSceneryShown(_ samples: [Sample], before: [[Bool]], noise: Float) async -> [Sample] {
        let fw = samples[0].frame.width, fh = samples[0].frame.height
        // Each sample as a view of its scenery alone (all else left out, as a subject is).
        let views = samples.indices.map { j -> Sample in
            var view = samples[j]
            view.subject = zip(before[j], samples[j].subject).map { was, now in !(was && !now) }
            return view
        }
        guard views.contains(where: { $0.subject.contains(false) }),
              let scenery = await laid(views, agreeing: 1, least: 8) else { return samples }
        let (factor, misplacement) = sceneryMatch
        let box = BoxFilter(width: fw, height: fh, radius: 1)
        // Each sample in a child task: they are independent.
        return await concurrentMap(samples) { sample in
            let seen = scenery.background(at: sample.offset, width: fw, height: fh)
            guard seen.known.contains(true) else { return sample }
            let patch = box.mean(PlateMatte.residual(sample.frame, seen.color, known: seen.known))
            let slope = box.mean(PlateMatte.gradient(seen.color, known: seen.known))
            var out = sample
            for i in out.subject.indices where out.subject[i] && seen.known[i]
                && patch[i] <= factor * noise + misplacement * slope[i] {
                out.subject[i] = false
            }
            return out
        }
    }

    /// The samples with the parts of their subject that are scenery left to the background: in a
    /// sample where the followed subject falls apart into several regions, a region that stays
    /// where the background puts it in the other samples that see its place (on their subject),
    /// while another region does not, is a thing fixed in the scene (a distractor the subject
    /// passed over and took along), as `ClipSubjectTracker.start` tells scenery in the first half
    /// second. Or, where the network took the fixed thing only in some samples, a region whose
    /// pixels look the same where the background puts them in most samples (a Tux Paint bug's arm
    /// touching a background petal in the first frame: wide set w04, alpha error 0.070 → 0.040),
    /// or looks the same where it is not hidden by that sample's subject.
    /// A subject in one piece is never split, so a subject that moves only in part keeps it all.
    static func withoutScenery(_ samples: [Sample], step: Int = 2, zoneReach: Int = 0) -> [Sample] {
        guard samples.count >= 4 else { return samples }
        let fw = samples[0].frame.width, fh = samples[0].frame.height
        var out = samples
        for j in samples.indices {
            let zone = samples[j].subject
            let regions = ConnectedComponents(Plane(width: fw, height: fh, values: zone.map { $0 ? 1 : 0 }), threshold: 0.5)
            guard regions.areas.count >= 2 else { continue }
            // Per region and other sample: its pixels (every `step`-th) in view there, and how many fall on that sample's subject.
            var inView = [[Int]](repeating: [Int](repeating: 0, count: samples.count), count: regions.areas.count)
            var onSubject = inView, inPlace = inView
            // The look of each region's core (the zone less its grown rim, which is background and
            // would look alike wherever the region went), on every other point.
            var coreInView = inView, looksAlike = inView, looksAlikeInPlace = inView, hidden = inView
            let frame = samples[j].frame
            for y in Swift.stride(from: 0, to: fh, by: step) {
                for x in Swift.stride(from: 0, to: fw, by: step) {
                    let label = regions.labels[y * fw + x]
                    guard label >= 0 else { continue }
                    let i = y * fw + x
                    let looked = (x / step + y / step).isMultiple(of: 2) && Self.isCore(zone, x: x, y: y, width: fw, height: fh, reach: zoneReach)
                    let colour = SIMD3(frame.red[i], frame.green[i], frame.blue[i])
                    for k in samples.indices where k != j {
                        let q = SIMD2(Float(x), Float(y)) - samples[j].offset + samples[k].offset
                        let qx = Int(q.x.rounded()), qy = Int(q.y.rounded())
                        guard qx >= 0, qy >= 0, qx < fw, qy < fh else { continue }
                        inView[Int(label)][k] += 1
                        if samples[k].subject[qy * fw + qx] { onSubject[Int(label)][k] += 1 }
                        if samples[k].subject[i] { inPlace[Int(label)][k] += 1 }
                        guard looked else { continue }
                        coreInView[Int(label)][k] += 1
                        if looksLike(colour, samples[k].frame, x: qx, y: qy) {
                            looksAlike[Int(label)][k] += 1
                        } else if Self.isCore(samples[k].subject, x: qx, y: qy, width: fw, height: fh, reach: zoneReach) {
                            hidden[Int(label)][k] += 1
                        }
                        if looksLike(colour, samples[k].frame, x: x, y: y) { looksAlikeInPlace[Int(label)][k] += 1 }
                    }
                }
            }
            let still = regions.areas.indices.map { r -> Bool in
                let seen = samples.indices.filter { $0 != j && inView[r][$0] * step * step * 2 >= regions.areas[r] }
                // On the subject for 9 in 10 of its pixels over those samples, and at least half in
                // each: the network may miss part of a fixed thing where the subject passes in front
                // of it, while a part that moves leaves its place in some sample.
                let on = seen.reduce(0) { $0 + onSubject[r][$1] }, all = seen.reduce(0) { $0 + inView[r][$1] }
                // And the background's motion must explain it better than staying put in the frame
                // does: with a still camera (or a pan short beside the region) a subject that sits
                // still stays with the background too, and proves nothing.
                let inFrame = seen.reduce(0) { $0 + inPlace[r][$1] }
                if seen.count >= 3 && on * 10 >= all * 9 && seen.allSatisfy({ onSubject[r][$0] * 2 >= inView[r][$0] })
                    && (on - inFrame) * 10 >= all { return true }
                // Or its core looks the same where the background puts it in two thirds of those
                // samples (the network, not always taking the fixed thing, fails the test above),
                // the others showing the subject there (passing in front of it: a part that moved
                // would leave its place to the background in some sample), and staying put in the
                // frame explains it less well (a still camera, or a subject the camera follows).
                // A sample where the subject passes in front of part of it counts when at least
                // two fifths look the same and the rest lies on the core of that sample's subject
                // zone, not its grown rim (a part of the subject that moved a few pixels leaves its
                // place to the rim): a splash of the background photo a shell swam over, 4 of 8
                // samples alike, wide set seed 31's w07 and seed 7's.
                let alike = seen.filter {
                    coreInView[r][$0] >= 8 && (looksAlike[r][$0] * 5 >= coreInView[r][$0] * 4
                        || (looksAlike[r][$0] * 5 >= coreInView[r][$0] * 2 && (looksAlike[r][$0] + hidden[r][$0]) * 5 >= coreInView[r][$0] * 4))
                }
                let alikeThere = alike.reduce(0) { $0 + looksAlike[r][$1] }, alikeInPlace = alike.reduce(0) { $0 + looksAlikeInPlace[r][$1] }
                let alikeInView = alike.reduce(0) { $0 + coreInView[r][$1] }
                return seen.count >= 3 && alike.count * 3 >= seen.count * 2 && (alikeThere - alikeInPlace) * 10 >= alikeInView
                    && seen.allSatisfy { alike.contains($0) || onSubject[r][$0] * 2 >= inView[r][$0] }
            }
            guard still.contains(true), still.contains(false) else { continue }
            for i in out[j].subject.indices where regions.labels[i] >= 0 && still[Int(regions.labels[i])] { out[j].subject[i] = false }
        }
        return out
    }

    /// Whether `zone` holds every point `reach` px from (`x`, `y`) along the axes and diagonals:
    /// the pixel is in the zone less its grown rim (0: any pixel of it).
    static func isCore(_ zone: [Bool], x: Int, y: Int, width: Int, height: Int, reach: Int) -> Bool {
        guard reach > 0 else { return true }
        let d = max(1, Int((Float(reach) * 0.7071).rounded()))
        for (dx, dy) in [(reach, 0), (-reach, 0), (0, reach), (0, -reach), (d, d), (d, -d), (-d, d), (-d, -d)] {
            let nx = x + dx, ny = y + dy
            guard nx >= 0, ny >= 0, nx < width, ny < height, zone[ny * width + nx] else { return false }
        }
        return true
    }

    /// Whether `colour` is within `sceneryLikeness` of a pixel of `frame` at (`x`, `y`) or next to
    /// it (a placement off by a pixel, or a sharp edge sampled at another fraction, still matches).
    static func looksLike(_ colour: SIMD3<Float>, _ frame: ColorPlanes, x: Int, y: Int) -> Bool {
        for ny in max(0, y - 1)...min(frame.height - 1, y + 1) {
            for nx in max(0, x - 1)...min(frame.width - 1, x + 1) {
                let i = ny * frame.width + nx
                let d = SIMD3(frame.red[i], frame.green[i], frame.blue[i]) - colour
                if max(abs(d.x), abs(d.y), abs(d.z)) <= sceneryLikeness { return true }
            }
        }
        return false
    }

    /// How far (0…1, each channel) a pixel may be from its place in another sample and still show
    /// the same thing: above the sensor's and the codec's noise (1–4 levels of 255 in the clip
    /// sets) with room for a placement off by a fraction of a pixel across an edge.
    static let sceneryLikeness: Float = 0.06

    /// One laying of the samples at their offsets.
    /// `least`: pixels (of every 7th) seen by enough samples for the plate's spread to be told.
    private static func laid(_ samples: [Sample], agreeing: Int, least: Int = 64) async -> BackgroundPlate? {
        let fw = samples[0].frame.width, fh = samples[0].frame.height
        let xs = samples.map(\.offset.x), ys = samples.map(\.offset.y)
        guard let maxX = xs.max(), let minX = xs.min(), let maxY = ys.max(), let minY = ys.min() else { return nil }
        let originX = Int(maxX.rounded(.up)), originY = Int(maxY.rounded(.up))
        let width = originX + fw - Int(minX.rounded(.down)), height = originY + fh - Int(minY.rounded(.down))
        guard width > 0, height > 0, width * height <= 16 * fw * fh else { return nil }
        struct Rows: Sendable { var r: [Float], g: [Float], b: [Float], count: [UInt8], deviation: [Float] }
        let parts = await concurrentMap(rowBands(height, count: 8)) { band -> Rows in
            let n = band.count * width
            var out = Rows(r: .init(repeating: 0, count: n), g: .init(repeating: 0, count: n), b: .init(repeating: 0, count: n),
                           count: .init(repeating: 0, count: n), deviation: .init(repeating: .infinity, count: n))
            // The three channels' values side by side (lanes 0-2), sorted together by one network
            // (more samples than it takes: one channel at a time, by insertion sort).
            let byNetwork = samples.count <= LaneMedians.capacity
            var values = LaneMedians()
            var vr = [Float](repeating: 0, count: byNetwork ? 0 : samples.count), vg = vr, vb = vr
            // The samples read through pointers: a `Sample` taken from the array per pixel retained
            // and released its four arrays each time.
            SampleView.with(samples) { views in
                for py in band {
                    for px in 0..<width {
                        let p = SIMD2<Float>(Float(px - originX), Float(py - originY))
                        var m = 0
                        for s in views {
                            let q = p + s.offset
                            guard q.x >= 0, q.y >= 0, q.x <= Float(fw - 1), q.y <= Float(fh - 1) else { continue }
                            let nx = Int(q.x.rounded()), ny = Int(q.y.rounded())
                            guard !s.subject[ny * fw + nx] else { continue }
                            let c = s.bilinear(q)
                            if byNetwork { values[m] = SIMD4(c.x, c.y, c.z, 0) } else { vr[m] = c.x; vg[m] = c.y; vb[m] = c.z }
                            m += 1
                        }
                        let o = (py - band.lowerBound) * width + px
                        out.count[o] = UInt8(min(255, m))
                        guard m > 0 else { continue }
                        if byNetwork {
                            let mid = values.medians(m)
                            out.r[o] = mid.x; out.g[o] = mid.y; out.b[o] = mid.z
                            // The largest channel's median absolute deviation: small when the samples agree.
                            for i in 0..<m { let d = values[i] - mid; values[i] = SIMD4(abs(d.x), abs(d.y), abs(d.z), 0) }
                            let deviation = values.medians(m)
                            out.deviation[o] = max(deviation.x, deviation.y, deviation.z)
                        } else {
                            let mr = median(&vr, m), mg = median(&vg, m), mb = median(&vb, m)
                            out.r[o] = mr; out.g[o] = mg; out.b[o] = mb
                            for i in 0..<m { vr[i] = abs(vr[i] - mr); vg[i] = abs(vg[i] - mg); vb[i] = abs(vb[i] - mb) }
                            out.deviation[o] = max(median(&vr, m), median(&vg, m), median(&vb, m))
                        }
                    }
                }
            }
            return out
        }
        let r = joinedBands(parts.map(\.r)), g = joinedBands(parts.map(\.g)), b = joinedBands(parts.map(\.b))
        let count = joinedBands(parts.map(\.count)), deviation = joinedBands(parts.map(\.deviation))
        // The typical deviation where enough samples saw the background: their noise (and the
        // alignment's error); a pixel deviating far more saw different things (not a background).
        var typical = [Float]()
        for i in Swift.stride(from: 0, to: count.count, by: 7) where Int(count[i]) >= agreeing { typical.append(deviation[i]) }
        guard typical.count >= least else { return nil }
        let spread = max(1 / 255, select(&typical, typical.count / 2))
        // Across a sharp edge the samples, placed at different fractions of a pixel, differ by up to
        // half a pixel's step of colour: tolerated in proportion to the plate's own gradient there.
        let color = ColorPlanes(width: width, height: height, red: r, green: g, blue: b)
        let slope = PlateMatte.gradient(color, known: count.map { Int($0) >= agreeing })
        let known = (0..<count.count).map { Int(count[$0]) >= agreeing && deviation[$0] <= 3 * spread + 0.5 * slope[$0] }
        return BackgroundPlate(width: width, height: height, originX: originX, originY: originY,
                               color: color, known: known, spread: spread)
    }

    /// The plate as a frame whose background sits at `offset` sees it (`width`×`height`): colours,
    /// and where known (all four plate pixels around known).
    func background(at offset: SIMD2<Float>, width fw: Int, height fh: Int) -> (color: ColorPlanes, known: [Bool]) {
        let n = fw * fh
        var r = [Float](repeating: 0, count: n), g = r, b = r
        var seen = [Bool](repeating: false, count: n)
        withTexels { texels, corners in
            for y in 0..<fh {
                for x in 0..<fw {
                    let q = SIMD2<Float>(Float(x), Float(y)) - offset + SIMD2(Float(originX), Float(originY))
                    guard let c = sample(q, texels, corners) else { continue }
                    let i = y * fw + x
                    r[i] = c.x; g[i] = c.y; b[i] = c.z; seen[i] = true
                }
            }
        }
        return (ColorPlanes(width: fw, height: fh, red: r, green: g, blue: b), seen)
    }

    /// `body` given the plate's texels and corner flags as pointers (for `sample(_:_:_:)`).
    @inline(__always)
    private func withTexels<R>(_ body: (UnsafePointer<SIMD4<Float>>, UnsafePointer<Bool>) -> R) -> R {
        texels.withUnsafeBufferPointer { t in cornersKnown.withUnsafeBufferPointer { k in body(t.baseAddress!, k.baseAddress!) } }
    }

    /// `sample(q)` read from the interleaved texels: the same tests and, lane by lane, the same
    /// arithmetic as `ColorPlanes.bilinear`, so the same values (lane 3 is 0).
    @inline(__always)
    private func sample(_ q: SIMD2<Float>, _ texels: UnsafePointer<SIMD4<Float>>, _ corners: UnsafePointer<Bool>) -> SIMD4<Float>? {
        guard q.x >= 0, q.y >= 0, q.x < Float(width - 1), q.y < Float(height - 1) else { return nil }
        let x0 = Int(q.x), y0 = Int(q.y), i = y0 * width + x0
        guard corners[i] else { return nil }
        let fx = q.x - Float(x0), fy = q.y - Float(y0)
        let p00 = texels[i], p01 = texels[i + 1], p10 = texels[i + width], p11 = texels[i + width + 1]
        let top = p00 + (p01 - p00) * fx
        let bottom = p10 + (p11 - p10) * fx
        return top + (bottom - top) * fy
    }

    /// `guess` refined so that `frame` matches the plate best (mean absolute difference) outside
    /// `exclude`: a grid of half pixels within 1.5 px, then eighths by steepest descent from its
    /// best, within 3/8 px of it.
    ///
    /// The grid's 49 costs are summed in one pass over the points (each point's plate pixels read
    /// once for all 49 offsets, while in cache) rather than one pass per offset; every offset's sum
    /// still adds the same terms in the same order, so the costs are those of one pass per offset
    /// (`PlateFastPathTests` keeps that reference). The eighths were a second such grid of 49 over
    /// every point: the descent costs only the offsets it passes (9 when it starts at the least,
    /// 3–5 more a step; each a pass over the points), the same sums, and lands on the grid's offset
    /// where the cost falls towards it (d02: CPU −7 %, the clip sets' figures unchanged:
    /// docs/benchmarks.md).
    func align(_ frame: ColorPlanes, exclude: [Bool], near guess: SIMD2<Float>) -> SIMD2<Float> {
        let fw = frame.width, fh = frame.height
        // Every fourth pixel of every fourth row, outside the subject.
        var points: [(p: SIMD2<Float>, c: SIMD4<Float>)] = []
        for y in Swift.stride(from: 2, to: fh - 2, by: 4) {
            for x in Swift.stride(from: 2, to: fw - 2, by: 4) where !exclude[y * fw + x] {
                let i = y * fw + x
                points.append((SIMD2(Float(x), Float(y)), SIMD4(frame.red[i], frame.green[i], frame.blue[i], 0)))
            }
        }
        guard points.count >= 200 else { return guess }
        let origin = SIMD2(Float(originX), Float(originY))
        // The half-pixel grid on a third of the points (it only has to land within a quarter pixel).
        let step: Float = 0.5, every = 3
        // The order the offsets are compared in: the centre, then the grid row by row.
        var candidates = [guess]
        for j in -3...3 {
            for i in -3...3 where i != 0 || j != 0 { candidates.append(guess + SIMD2(Float(i), Float(j)) * step) }
        }
        var sums = [Float](repeating: 0, count: 49), counts = [Int](repeating: 0, count: 49)
        var tried = 0
        withTexels { texels, corners in
            candidates.withUnsafeBufferPointer { candidate in
                sums.withUnsafeMutableBufferPointer { sum in
                    counts.withUnsafeMutableBufferPointer { count in
                        points.withUnsafeBufferPointer { points in
                            for index in Swift.stride(from: 0, to: points.count, by: every) {
                                tried += 1
                                let point = points[index]
                                for k in 0..<49 {
                                    guard let c = sample(point.p - candidate[k] + origin, texels, corners) else { continue }
                                    let d = point.c - c
                                    sum[k] += abs(d.x) + abs(d.y) + abs(d.z); count[k] += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        func cost(_ k: Int) -> Float { counts[k] * 4 >= tried ? sums[k] / Float(counts[k]) : .infinity }
        var best = (offset: guess, cost: cost(0))
        for k in 1..<49 {
            let c = cost(k)
            if c < best.cost { best = (candidates[k], c) }
        }
        return eighthsByDescent(from: best.offset, points: points)
    }

    /// `centre` moved by eighths of a pixel, at most three each way, to the offset of least cost
    /// over every point by steepest descent: from the current offset to its best neighbour (of 8,
    /// compared in `align`'s grid order) until none is better.
    private func eighthsByDescent(from centre: SIMD2<Float>, points: [(p: SIMD2<Float>, c: SIMD4<Float>)]) -> SIMD2<Float> {
        let origin = SIMD2(Float(originX), Float(originY))
        var costs: [SIMD2<Int>: Float] = [:]
        func cost(_ step: SIMD2<Int>) -> Float {
            if let known = costs[step] { return known }
            let candidate = centre + SIMD2(Float(step.x), Float(step.y)) * 0.125
            var sum: Float = 0, count = 0
            withTexels { texels, corners in
                for point in points {
                    guard let c = sample(point.p - candidate + origin, texels, corners) else { continue }
                    let d = point.c - c
                    sum += abs(d.x) + abs(d.y) + abs(d.z); count += 1
                }
            }
            let value = count * 4 >= points.count ? sum / Float(count) : .infinity
            costs[step] = value
            return value
        }
        var at = SIMD2<Int>(0, 0), atCost = cost(at)
        while true {
            var next = at, nextCost = atCost
            for j in -1...1 {
                for i in -1...1 where i != 0 || j != 0 {
                    let step = at &+ SIMD2(i, j)
                    guard abs(step.x) <= 3, abs(step.y) <= 3 else { continue }
                    let c = cost(step)
                    if c < nextCost { (next, nextCost) = (step, c) }
                }
            }
            if next == at { break }
            (at, atCost) = (next, nextCost)
        }
        return centre + SIMD2(Float(at.x), Float(at.y)) * 0.125
    }

    /// The median of `values[0..<count]` (reorders them). `LaneMedians.medians` gives the same
    /// values, three channels at once (pinned in a test).
    static func median(_ values: inout [Float], _ count: Int) -> Float {
        // Insertion sort: a few to a few dozen values.
        for i in 1..<max(1, count) {
            let v = values[i]
            var j = i - 1
            while j >= 0 && values[j] > v { values[j + 1] = values[j]; j -= 1 }
            values[j + 1] = v
        }
        return count % 2 == 1 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2
    }

    /// The `k`-th smallest of `values` (reorders them; not empty), in linear time on average:
    /// Hoare's selection (Wirth's form), the pivot the median of three. A sort took 4 % of a
    /// clip's CPU here (every frame's noise is the median of ~10⁵ residuals); the value is the same.
    static func select(_ values: inout [Float], _ k: Int) -> Float {
        let k = min(max(0, k), values.count - 1)
        var low = 0, high = values.count - 1
        while low < high {
            let a = values[low], b = values[(low + high) / 2], c = values[high]
            let pivot = max(min(a, b), min(max(a, b), c))
            var i = low, j = high
            // Both scans stop at the pivot's value at the latest, so they never leave the range.
            repeat {
                while values[i] < pivot { i += 1 }
                while pivot < values[j] { j -= 1 }
                if i <= j { values.swapAt(i, j); i += 1; j -= 1 }
            } while i <= j
            if j < k { low = i }
            if k < i { high = j }
        }
        return values[k]
    }
}

/// A plate sample's frame and subject as pointers, valid inside `with` only.
struct SampleView {
    let red: UnsafePointer<Float>, green: UnsafePointer<Float>, blue: UnsafePointer<Float>
    let subject: UnsafePointer<Bool>
    let offset: SIMD2<Float>
    let width: Int, height: Int

    /// `body` with a view of each of `samples` (frames not empty), one nested buffer access per array.
    static func with<R>(_ samples: [BackgroundPlate.Sample], _ body: ([SampleView]) -> R) -> R {
        var views: [SampleView] = []
        views.reserveCapacity(samples.count)
        func nest(_ k: Int) -> R {
            guard k < samples.count else { return body(views) }
            let frame = samples[k].frame
            return frame.red.withUnsafeBufferPointer { r in
                frame.green.withUnsafeBufferPointer { g in
                    frame.blue.withUnsafeBufferPointer { b in
                        samples[k].subject.withUnsafeBufferPointer { s in
                            views.append(SampleView(red: r.baseAddress!, green: g.baseAddress!, blue: b.baseAddress!, subject: s.baseAddress!,
                                                    offset: samples[k].offset, width: frame.width, height: frame.height))
                            return nest(k + 1)
                        }
                    }
                }
            }
        }
        return nest(0)
    }

    /// `ColorPlanes.bilinear(q)` of the frame: the same taps, so the same values (pinned in a test).
    @inline(__always)
    func bilinear(_ q: SIMD2<Float>) -> SIMD3<Float> {
        let taps = BilinearTaps(q, width: width, height: height)
        return SIMD3(taps.value(red), taps.value(green), taps.value(blue))
    }
}

/// A bilinear read at `q` within a `width`×`height` plane (the last row and column clamped): its
/// four neighbours and weights, one arithmetic for every reader of planes.
struct BilinearTaps {
    let i00: Int, i01: Int, i10: Int, i11: Int
    let fx: Float, fy: Float

    @inline(__always)
    init(_ q: SIMD2<Float>, width: Int, height: Int) {
        let x0 = min(Int(q.x), width - 1), y0 = min(Int(q.y), height - 1)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        fx = q.x - Float(x0); fy = q.y - Float(y0)
        i00 = y0 * width + x0; i01 = y0 * width + x1; i10 = y1 * width + x0; i11 = y1 * width + x1
    }

    @inline(__always)
    func value(_ p: UnsafePointer<Float>) -> Float {
        let top = p[i00] + (p[i01] - p[i00]) * fx
        let bottom = p[i10] + (p[i11] - p[i10]) * fx
        return top + (bottom - top) * fy
    }

    @inline(__always)
    func value(_ p: [Float]) -> Float { p.withUnsafeBufferPointer { value($0.baseAddress!) } }
}

extension ColorPlanes {
    /// The colour at `q` (bilinear; `q` within the planes, the last row and column clamped).
    @inline(__always)
    func bilinear(_ q: SIMD2<Float>) -> SIMD3<Float> {
        let taps = BilinearTaps(q, width: width, height: height)
        return SIMD3(taps.value(red), taps.value(green), taps.value(blue))
    }
}

/// Medians of up to 16 values in each of a SIMD4's lanes (the plate's three channels at once):
/// Batcher's odd-even merge sort of 8 or 16 values (19 or 63 compare-exchanges, values beyond
/// those given padded with +∞), branch-free and in registers (`ordered`). The insertion sort it replaced,
/// per channel, spent its time in mispredicted branches (4 % of a clip's CPU); the medians are
/// the same values (pinned against `BackgroundPlate.median` in a test).
struct LaneMedians {
    typealias Values = (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>,
                        SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    /// The most values it takes.
    static let capacity = 16
    private var values: Values = (.zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero,
                                  .zero, .zero, .zero, .zero, .zero, .zero, .zero, .zero)

    /// The `i`-th value (0 ≤ i < `capacity`).
    @inline(__always)
    subscript(i: Int) -> SIMD4<Float> {
        get { withUnsafeBytes(of: values) { $0.load(fromByteOffset: i * MemoryLayout<SIMD4<Float>>.stride, as: SIMD4<Float>.self) } }
        set { withUnsafeMutableBytes(of: &values) { $0.storeBytes(of: newValue, toByteOffset: i * MemoryLayout<SIMD4<Float>>.stride, as: SIMD4<Float>.self) } }
    }

    /// Each lane's median of the first `used` values (1…16; the mean of the middle two when
    /// `used` is even), as `BackgroundPlate.median` gives it. Leaves them sorted, lane by lane.
    @inline(__always)
    mutating func medians(_ used: Int) -> SIMD4<Float> {
        let size = used <= 8 ? 8 : 16
        for i in used..<size { self[i] = SIMD4(repeating: .infinity) }
        if size == 8 { Self.sort8(&values) } else { Self.sort16(&values) }
        return used % 2 == 1 ? self[used / 2] : (self[used / 2 - 1] + self[used / 2]) / 2
    }

    /// The lane-wise smaller and larger of `a` and `b`. Written out lane by lane: the generic
    /// `pointwiseMin` / `pointwiseMax` were left as calls (6 % of a clip's CPU, more than the sort).
    @inline(__always)
    private static func ordered(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> (SIMD4<Float>, SIMD4<Float>) {
        (SIMD4(b.x < a.x ? b.x : a.x, b.y < a.y ? b.y : a.y, b.z < a.z ? b.z : a.z, b.w < a.w ? b.w : a.w),
         SIMD4(b.x < a.x ? a.x : b.x, b.y < a.y ? a.y : b.y, b.z < a.z ? a.z : b.z, b.w < a.w ? a.w : b.w))
    }

    /// Batcher's network for eight values.
    @inline(__always)
    private static func sortEight(_ v0: inout SIMD4<Float>, _ v1: inout SIMD4<Float>, _ v2: inout SIMD4<Float>, _ v3: inout SIMD4<Float>,
                                  _ v4: inout SIMD4<Float>, _ v5: inout SIMD4<Float>, _ v6: inout SIMD4<Float>, _ v7: inout SIMD4<Float>) {
        (v0, v1) = ordered(v0, v1)
        (v2, v3) = ordered(v2, v3)
        (v4, v5) = ordered(v4, v5)
        (v6, v7) = ordered(v6, v7)
        (v0, v2) = ordered(v0, v2)
        (v1, v3) = ordered(v1, v3)
        (v4, v6) = ordered(v4, v6)
        (v5, v7) = ordered(v5, v7)
        (v1, v2) = ordered(v1, v2)
        (v5, v6) = ordered(v5, v6)
        (v0, v4) = ordered(v0, v4)
        (v1, v5) = ordered(v1, v5)
        (v2, v6) = ordered(v2, v6)
        (v3, v7) = ordered(v3, v7)
        (v2, v4) = ordered(v2, v4)
        (v3, v5) = ordered(v3, v5)
        (v1, v2) = ordered(v1, v2)
        (v3, v4) = ordered(v3, v4)
        (v5, v6) = ordered(v5, v6)
    }

    @inline(__always)
    private static func sort8(_ v: inout Values) {
        sortEight(&v.0, &v.1, &v.2, &v.3, &v.4, &v.5, &v.6, &v.7)
    }

    /// Each half sorted by `sortEight`, then merged (the halves' compare-exchanges touch disjoint
    /// values, so their order among each other does not matter).
    @inline(__always)
    private static func sort16(_ v: inout Values) {
        sortEight(&v.0, &v.1, &v.2, &v.3, &v.4, &v.5, &v.6, &v.7)
        sortEight(&v.8, &v.9, &v.10, &v.11, &v.12, &v.13, &v.14, &v.15)
        (v.0, v.8) = ordered(v.0, v.8)
        (v.1, v.9) = ordered(v.1, v.9)
        (v.2, v.10) = ordered(v.2, v.10)
        (v.3, v.11) = ordered(v.3, v.11)
        (v.4, v.12) = ordered(v.4, v.12)
        (v.5, v.13) = ordered(v.5, v.13)
        (v.6, v.14) = ordered(v.6, v.14)
        (v.7, v.15) = ordered(v.7, v.15)
        (v.4, v.8) = ordered(v.4, v.8)
        (v.5, v.9) = ordered(v.5, v.9)
        (v.6, v.10) = ordered(v.6, v.10)
        (v.7, v.11) = ordered(v.7, v.11)
        (v.2, v.4) = ordered(v.2, v.4)
        (v.3, v.5) = ordered(v.3, v.5)
        (v.6, v.8) = ordered(v.6, v.8)
        (v.7, v.9) = ordered(v.7, v.9)
        (v.10, v.12) = ordered(v.10, v.12)
        (v.11, v.13) = ordered(v.11, v.13)
        (v.1, v.2) = ordered(v.1, v.2)
        (v.3, v.4) = ordered(v.3, v.4)
        (v.5, v.6) = ordered(v.5, v.6)
        (v.7, v.8) = ordered(v.7, v.8)
        (v.9, v.10) = ordered(v.9, v.10)
        (v.11, v.12) = ordered(v.11, v.12)
        (v.13, v.14) = ordered(v.13, v.14)
    }
}
