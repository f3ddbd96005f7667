import Foundation
import Raster

/// Whether the first frame's subject moves apart from its background, the clip-level half of "a
/// clear subject": a camera panning over a scene carries everything in it along one motion, and a
/// live sticker of that scenery (a splash, a statue, an object lying in a photo) is no sticker (exit
/// 65, as a photo without a subject), however salient it is in one frame. Followed region by
/// region, it also tells which of several salient regions are the subject and which are scenery
/// (a flower in the background photo beside the one moving over it).
///
/// Every frame is compared with a reference frame (the first, later a newer one when the view has
/// moved far), both reduced to `side` px grey: the background's offset is found by block matching
/// outside the subject, the subject's own offset by matching the subject's pixels alone, each to a
/// tenth of a pixel (a parabola through the best integer offset's neighbours: a slow pan moves
/// less than a pixel a frame at this size). A subject whose own offset parts from the background's
/// by more than `apartDistance` is a subject; so is one whose pixels the background's motion does
/// not explain move on their own, frame to frame (`ownMotion`: a subject drawn in outline, its
/// region mostly the background seen through it). Scenery is a clip whose camera moved (the
/// background by at least `minimumPan`) while the subject never parted from it either way. A still camera proves nothing,
/// so a clip of a still scene keeps its subject. Owned by one task.
struct MovingSubjectCheck: Sendable {
    /// The longer side of the grey frames compared (256 at most: `search` sums in floats, exactly).
    let side: Int
    /// The offsets searched around the last one, per frame (px at `side`).
    var searchRadius = 4
    /// How far the background must travel (px at `side`) before a subject that stays with it is scenery.
    var minimumPan: Float = 5
    /// How far (px at `side`) the subject must part from the background to be a subject.
    var apartDistance: Float = 3
    private let width: Int, height: Int
    private var reference: [Float]
    /// Each region's pixels in the reference; `subject` their union.
    private var regions: [[Bool]]
    private var subject: [Bool]
    /// Offsets of the background and of each region, from the reference and since the first frame.
    private var anchor: (x: Float, y: Float) = (0, 0)
    private var background: (x: Float, y: Float) = (0, 0)
    /// The background's motion from the previous frame.
    private var step: (x: Float, y: Float) = (0, 0)
    private var own: [(x: Float, y: Float)]
    /// The background's farthest offset from the first frame.
    private(set) var panned: Float = 0
    /// Which regions parted from the background at some frame.
    private(set) var apart: [Bool]
    private var framesApart: [Int]
    /// The frames `reanchor` saw while no region had parted: each one's grey, its subject and the
    /// background's offset then, for `partedOnItsOwn` (asked only of a clip the regions never
    /// told apart: most clips let them go after a few frames).
    private var seen: [(grey: [Float], mask: [Bool], background: (x: Float, y: Float))] = []
    /// The frames kept in `seen` at most (the first ones: ~16 MB at 256 px; four seconds at the
    /// looks' 15 frames a second), so that memory does not grow with the piece.
    static let framesSeenAtMost = 64

    /// nil when the first frame's mask is empty (nothing to follow).
    init?(frame: Image, mask: Mask, side: Int = 256) {
        self.init(frame: frame, side: side) { w, h in [mask.resized(width: w, height: h).values.map { $0 >= 128 }] }
    }

    /// Each of `regions` (planes > 0.5, at any resolution) followed on its own; nil when all are empty.
    init?(frame: Image, regions: [Plane], side: Int = 256) {
        self.init(frame: frame, side: side) { w, h in
            regions.map { $0.resized(width: w, height: h, filter: .area).values.map { $0 > 0.5 } }
        }
    }

    /// The background alone followed, every pixel of it (a clip whose subject is found by its
    /// motion: `MotionSubject`); `backgroundStep` follows it.
    init(background frame: Image, side: Int = 256) {
        self.side = side
        let scale = min(1, Double(side) / Double(max(frame.width, frame.height)))
        width = max(16, Int(Double(frame.width) * scale)); height = max(16, Int(Double(frame.height) * scale))
        reference = Self.grey(frame, width, height)
        regions = []
        subject = [Bool](repeating: false, count: width * height)
        own = []; apart = []; framesApart = []
        followsBackground = true
    }

    /// The background's offset in `frame` since the first frame, as a fraction of the frame's sides
    /// (nil: not matched); far from the reference, this frame becomes it.
    mutating func backgroundStep(_ frame: Image) -> (x: Float, y: Float)? {
        guard let motion = followMotion(frame) else { return nil }
        if hypot(motion.ground.x, motion.ground.y) > Float(min(width, height)) / 6 {
            reference = motion.grey; anchor = background
        }
        return backgroundOffset
    }

    private init?(frame: Image, side: Int, regions: (Int, Int) -> [[Bool]]) {
        self.side = side
        let scale = min(1, Double(side) / Double(max(frame.width, frame.height)))
        width = max(16, Int(Double(frame.width) * scale)); height = max(16, Int(Double(frame.height) * scale))
        reference = Self.grey(frame, width, height)
        self.regions = regions(width, height)
        subject = self.regions.dropFirst().reduce(self.regions.first ?? []) { zip($0, $1).map { $0 || $1 } }
        own = Array(repeating: (0, 0), count: self.regions.count)
        apart = Array(repeating: false, count: self.regions.count)
        framesApart = Array(repeating: 0, count: self.regions.count)
        guard subject.contains(true) else { return nil }
        seen = [(reference, subject, (0, 0))]
    }

    /// Whether the clip so far shows scenery: the camera moved and the subject stayed with it.
    var isScenery: Bool { !movedApart && panned >= minimumPan && !partedOnItsOwn }

    /// Whether the subject's pixels that the background's motion does not explain moved on their
    /// own (`ownMotion`), from frame to frame, in three frames running along one smooth path: one
    /// frame's best offset among hundreds can fall anywhere (scenery's did, once in a clip at most).
    var partedOnItsOwn: Bool {
        var path: [(dx: Int, dy: Int)] = []
        for (last, next) in zip(seen, seen.dropFirst()) {
            let step = (x: next.background.x - last.background.x, y: next.background.y - last.background.y)
            let own = Self.ownMotion(previous: last.grey, mask: last.mask, current: next.grey, step: step, width: width, height: height)
            if let own, let was = path.last, max(abs(own.dx - was.dx), abs(own.dy - was.dy)) <= 4 {
                path.append(own)
            } else {
                path = own.map { [$0] } ?? []
            }
            if path.count >= 3 { return true }
        }
        return false
    }

    /// Some region parted from the background.
    var movedApart: Bool { apart.contains(true) }

    /// The regions (by index) that are scenery beside a subject: the camera moved, they stayed with
    /// the background while another region moved apart. Empty when that cannot be told.
    var sceneryRegions: [Int] {
        guard movedApart, panned >= minimumPan else { return [] }
        return apart.indices.filter { !apart[$0] }
    }

    /// Whether the background is followed on once every region has moved apart (for `backgroundOffset`).
    var followsBackground = false

    /// How far the background has moved since the first frame, as a fraction of the frame's width and height.
    var backgroundOffset: (x: Float, y: Float) { (background.x / Float(width), background.y / Float(height)) }

    /// Takes the next frame, with its subject's mask (nil: keep the reference as long as it overlaps).
    mutating func observe(_ frame: Image, mask: Mask?) {
        guard let motion = followMotion(frame), let mask else { return }
        reanchor(motion, mask: mask)
    }

    /// What `followMotion` saw of a frame, for `reanchor`.
    struct Motion: Sendable {
        fileprivate let grey: [Float]
        fileprivate let ground: (x: Float, y: Float)
        /// The background's offset since the first frame.
        fileprivate let background: (x: Float, y: Float)
    }

    /// The first half of `observe`: the background's and each region's offsets in `frame`. It
    /// needs no mask, so it can run while the network looks at the same frame. nil when nothing is
    /// followed or the background was not matched.
    mutating func followMotion(_ frame: Image) -> Motion? {
        guard apart.contains(false) || followsBackground else { return nil }
        let grey = Self.grey(frame, width, height)
        // Searched where the last frame's motion, continued, puts it.
        let fromAnchor = (x: background.x + step.x - anchor.x, y: background.y + step.y - anchor.y)
        guard let ground = offset(of: grey, near: fromAnchor, pixels: subject, inside: false) else { return nil }
        step = (anchor.x + ground.x - background.x, anchor.y + ground.y - background.y)
        background = (anchor.x + ground.x, anchor.y + ground.y)
        panned = max(panned, hypot(background.x, background.y))
        for k in regions.indices where !apart[k] {
            let near = (x: own[k].x + step.x - anchor.x, y: own[k].y + step.y - anchor.y)
            guard let thing = offset(of: grey, near: near, pixels: regions[k], inside: true) else { continue }
            own[k] = (anchor.x + thing.x, anchor.y + thing.y)
            // Apart in two frames running: one frame's mismatch (a blur, a turn) proves nothing.
            let parted = hypot(own[k].x - background.x, own[k].y - background.y) > apartDistance
            framesApart[k] = parted ? framesApart[k] + 1 : 0
            if framesApart[k] >= 2 { apart[k] = true }
        }
        return Motion(grey: grey, ground: ground, background: background)
    }

    /// The second half of `observe`, with the frame's subject mask: far from the reference, little
    /// of it still overlaps, so this frame becomes the reference.
    mutating func reanchor(_ motion: Motion, mask: Mask) {
        let keeps = !movedApart && seen.count < Self.framesSeenAtMost
        let moves = regions.count == 1 && !apart[0] && hypot(motion.ground.x, motion.ground.y) > Float(min(width, height)) / 6
        if movedApart { seen = [] }
        guard keeps || moves else { return }
        let now = mask.resized(width: width, height: height).values.map { $0 >= 128 }
        if keeps { seen.append((motion.grey, now, motion.background)) }
        guard moves, now.contains(true) else { return }
        reference = motion.grey; subject = now; regions = [now]; anchor = background; own = [background]; framesApart = [0]
    }

    /// Where the pixels of `mask` in `previous` that the background's motion (`step`) does not
    /// explain went in `current`: the offset from the background's (px) of the one other motion
    /// that explains them best, when it lies `minimumApart` or more from it and explains them
    /// clearly better (`clearGain` times) than the median offset of the window does, and several
    /// times better than it explains the background, by twice the frame's noise a pixel at least.
    /// nil when nothing but the background's motion shows (offsets next to it only mend its rounding).
    ///
    /// A subject drawn in outline over the background (its inside transparent) is a region made
    /// mostly of the background seen through it: matched whole, it goes with the background, and
    /// only the outline tells it apart (every other pixel of every other row is matched).
    static func ownMotion(previous: [Float], mask: [Bool], current: [Float], step: (x: Float, y: Float),
                          width: Int, height: Int, radius: Int = 14) -> (dx: Int, dy: Int)? {
        let minimumApart = 3, clearGain: Float = 1.2, ownOverGround: Float = 3, ownOverNoise: Float = 2
        let sx = Int(step.x.rounded()), sy = Int(step.y.rounded())
        func inside(_ x: Int, _ y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height }
        var points: [(i: Int, x: Int, y: Int, r: Float)] = []
        for y in Swift.stride(from: 0, to: height, by: 2) {
            for x in Swift.stride(from: 0, to: width, by: 2) where mask[y * width + x] && inside(x + sx, y + sy) {
                let i = y * width + x
                points.append((i, x, y, abs(previous[i] - current[(y + sy) * width + x + sx])))
            }
        }
        guard points.count >= 16 else { return nil }
        let alone = points.reduce(Float(0)) { $0 + $1.r }
        // Each offset's gain: how much less the points differ when each may go with the
        // background or with that offset (its own motion), over all points.
        var gains: [Float] = [], best = (gain: -Float.infinity, dx: 0, dy: 0)
        gains.reserveCapacity((2 * radius + 1) * (2 * radius + 1))
        for dy in -radius...radius {
            for dx in -radius...radius where max(abs(dx), abs(dy)) > 1 {
                var sum: Float = 0
                for p in points {
                    let qx = p.x + sx + dx, qy = p.y + sy + dy
                    sum += inside(qx, qy) ? min(p.r, abs(previous[p.i] - current[qy * width + qx])) : p.r
                }
                let gain = alone - sum
                gains.append(gain)
                if gain > best.gain { best = (gain, dx, dy) }
            }
        }
        gains.sort()
        let typical = gains[gains.count / 2]
        guard max(abs(best.dx), abs(best.dy)) >= minimumApart, best.gain > 0, best.gain >= clearGain * typical else { return nil }
        // The motion must be the subject's own: over the background (every fourth pixel of every
        // fourth row outside the subject) it must explain several times less. A ground repeating
        // itself (stripes, tiles) is explained at its period as well everywhere.
        // And well above the frame's noise (the median residual of the background at its motion).
        var ground: Float = 0, residuals: [Float] = []
        for y in Swift.stride(from: 0, to: height, by: 4) {
            for x in Swift.stride(from: 0, to: width, by: 4) where !mask[y * width + x] {
                let qx = x + sx + best.dx, qy = y + sy + best.dy
                guard inside(x + sx, y + sy), inside(qx, qy) else { continue }
                let i = y * width + x
                let r = abs(previous[i] - current[(y + sy) * width + x + sx])
                ground += r - min(r, abs(previous[i] - current[qy * width + qx]))
                residuals.append(r)
            }
        }
        guard residuals.count >= 16 else { return nil }
        let noise = max(1, BackgroundPlate.select(&residuals, residuals.count / 2))
        let own = best.gain / Float(points.count)
        guard own >= ownOverNoise * noise, own >= ownOverGround * ground / Float(residuals.count) else { return nil }
        return (best.dx, best.dy)
    }

    /// The offset (dx, dy) at which `grey` matches the reference best over the pixels outside
    /// `pixels` (the background) or inside them (a region), searched around `near`, refined below a pixel; nil when too few pixels overlap.
    private func offset(of grey: [Float], near: (x: Float, y: Float), pixels: [Bool], inside subjectPixels: Bool) -> (x: Float, y: Float)? {
        // A best offset on the window's border may lie beyond it (a fast pan): the window follows it.
        var centre = (x: Int(near.x.rounded()), y: Int(near.y.rounded()))
        // The pixels compared, as 1 (compared) or 0, so that the sums run eight lanes at a time.
        let weight = pixels.map { $0 == subjectPixels ? Float(1) : 0 }
        let wanted = subjectPixels ? max(16, pixels.lazy.filter { $0 }.count / 3) : width * height / 8
        for _ in 0..<4 {
            guard let found = search(grey, around: centre, weight: weight, wanted: wanted) else { return nil }
            let moved = (x: Int(found.x.rounded()), y: Int(found.y.rounded()))
            if abs(moved.x - centre.x) < searchRadius && abs(moved.y - centre.y) < searchRadius { return found }
            centre = moved
        }
        return search(grey, around: centre, weight: weight, wanted: wanted)
    }

    /// The best offset within `searchRadius` of `centre`, refined below a pixel, over the pixels
    /// `weight` holds 1 at, `wanted` of them overlapping at least.
    private func search(_ grey: [Float], around centre: (x: Int, y: Int), weight compared: [Float], wanted: Int) -> (x: Float, y: Float)? {
        let r = searchRadius
        let cx = centre.x, cy = centre.y
        var costs = [Float](repeating: .infinity, count: (2 * r + 1) * (2 * r + 1))
        var best = (cost: Float.infinity, i: -1, dx: 0, dy: 0)
        // The greys are whole numbers (`grey`) and a frame at `side` ≤ 256 px holds at most 65 536
        // of them, so every partial sum (≤ 255 a pixel) is a whole number below 2²⁴: exact in any
        // order, the same costs as one pixel at a time.
        grey.withUnsafeBufferPointer { other in
            reference.withUnsafeBufferPointer { ref in
                compared.withUnsafeBufferPointer { weight in
                    for j in -r...r {
                        for i in -r...r {
                            let dx = cx + i, dy = cy + j
                            var sums = SIMD8<Float>(), counts = SIMD8<Float>()
                            var sum: Float = 0, n: Float = 0
                            let x0 = max(0, -dx), x1 = max(x0, min(width, width - dx))
                            let y0 = max(0, -dy), y1 = max(y0, min(height, height - dy))
                            for y in y0..<y1 {
                                let a = ref.baseAddress! + y * width, b = other.baseAddress! + (y + dy) * width + dx
                                let m = weight.baseAddress! + y * width
                                var x = x0
                                while x + 8 <= x1 {
                                    let d = UnsafeRawPointer(a + x).loadUnaligned(as: SIMD8<Float>.self)
                                        - UnsafeRawPointer(b + x).loadUnaligned(as: SIMD8<Float>.self)
                                    let on = UnsafeRawPointer(m + x).loadUnaligned(as: SIMD8<Float>.self)
                                    // (`pointwiseMax` would stay a generic call per lane.)
                                    sums += on * d.replacing(with: -d, where: d .< 0); counts += on
                                    x += 8
                                }
                                while x < x1 { sum += m[x] * abs(a[x] - b[x]); n += m[x]; x += 1 }
                            }
                            n += counts.sum(); sum += sums.sum()
                            guard Int(n) >= wanted else { continue }
                            let k = (j + r) * (2 * r + 1) + (i + r)
                            costs[k] = sum / n
                            if costs[k] < best.cost { best = (costs[k], k, dx, dy) }
                        }
                    }
                }
            }
        }
        guard best.i >= 0 else { return nil }
        let stride = 2 * r + 1, bi = best.i % stride, bj = best.i / stride
        func refine(_ minus: Float?, _ centre: Float, _ plus: Float?) -> Float {
            guard let minus, let plus, minus.isFinite, plus.isFinite else { return 0 }
            let curvature = minus - 2 * centre + plus
            return curvature > 1e-6 ? max(-0.5, min(0.5, 0.5 * (minus - plus) / curvature)) : 0
        }
        let fx = refine(bi > 0 ? costs[best.i - 1] : nil, best.cost, bi < stride - 1 ? costs[best.i + 1] : nil)
        let fy = refine(bj > 0 ? costs[best.i - stride] : nil, best.cost, bj < stride - 1 ? costs[best.i + stride] : nil)
        return (Float(best.dx) + fx, Float(best.dy) + fy)
    }

    private static func grey(_ frame: Image, _ width: Int, _ height: Int) -> [Float] {
        frame.downsampled(width: width, height: height).luminance().values.map { Float($0) }
    }
}
