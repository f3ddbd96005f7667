import BoundedConcurrency
import Raster

/// A clip's subject found by what the background's motion does not explain: the pixels of a frame
/// that differ from a plate of the background laid from the whole piece (`BackgroundPlate`, no
/// subject left out: a thing moving over the background covers each place of it in few samples,
/// and the per-pixel median keeps the background).
///
/// For a clip whose network look saw no subject, or only scenery that the camera carried along
/// (`MovingSubjectCheck`): line art the network hardly sees (a treble clef's strokes over grass,
/// a firework's streaks over a dandelion) still moves apart from the background. A clip of a pan
/// alone leaves nothing above the plate's noise and the misplacement its edges tolerate, and is
/// still refused. So is one whose only difference stays put in the frame while the camera pans (a
/// logo, a timestamp, a watermark: it lands on another place of the plate in every sample, and the
/// plate's median leaves it out): a subject's pixels must differ from a second plate too, the
/// samples' median in the frame's own coordinates (`still`), which keeps what the frame holds
/// still. A value: frames are cut out in parallel.
public struct MotionSubject: Sendable, Hashable, Codable {
    /// A pixel is the subject's where its 3×3 patch differs from the plate by more than this many
    /// times the clearing's tolerance there (`PlateMatte.matchFactor` noise and `misplacement`
    /// of the plate's gradient): a thing apart from the background, not noise nor a plate placed
    /// a fraction of a pixel off.
    public var beyond: Float = 3
    /// Parts of the subject's pixels (8-connected) smaller than this are specks of noise.
    public var speck = 6
    /// The subject must cover at least this share of the frame (and four specks)…
    public var minimumShare: Float = 0.0003
    /// …in at least this share of the plate's samples, and the plate must fit as many.
    public var presentShare: Float = 0.6

    public init() {}

    /// The subject's pixels in `frame` (the working size), its background placed near `offset`
    /// against `plate`; nil when the plate does not cover most of the frame or does not fit it.
    /// `still`: what stays put in the frame (`still(_:)`); a pixel matching it is no subject's.
    func pixels(in frame: ColorPlanes, plate: BackgroundPlate, near offset: SIMD2<Float>, matte: PlateMatte, still: ColorPlanes? = nil) -> [Bool]? {
        let w = frame.width, h = frame.height, n = w * h
        let placed = plate.align(frame, exclude: [Bool](repeating: false, count: n), near: offset)
        let background = plate.background(at: placed, width: w, height: h)
        var residual = PlateMatte.residual(frame, background.color, known: background.known)
        var quiet = [Float]()
        for i in Swift.stride(from: 0, to: n, by: 3) where background.known[i] { quiet.append(residual[i]) }
        guard quiet.count * 3 >= n / 2 else { return nil }
        let noise = max(1 / 255, BackgroundPlate.select(&quiet, quiet.count / 2))
        guard noise <= matte.maximumNoise else { return nil }
        // Unknown pixels add nothing to their neighbours' patches (their residual reads 1).
        for i in 0..<n where !background.known[i] { residual[i] = 0 }
        let box = BoxFilter(width: w, height: h, radius: 1)
        let patch = box.mean(residual), slope = box.mean(PlateMatte.gradient(background.color, known: background.known))
        func apart(_ patch: [Float], _ slope: [Float], _ i: Int) -> Bool {
            patch[i] > beyond * (matte.matchFactor * noise + matte.misplacement * slope[i])
        }
        var on = Plane(width: w, height: h, values: (0..<n).map { background.known[$0] && apart(patch, slope, $0) ? 1 : 0 })
        if let still, still.width == w, still.height == h {
            let everywhere = [Bool](repeating: true, count: n)
            let stillPatch = box.mean(PlateMatte.residual(frame, still, known: everywhere))
            let stillSlope = box.mean(PlateMatte.gradient(still, known: everywhere))
            for i in 0..<n where on.values[i] > 0 && !apart(stillPatch, stillSlope, i) { on.values[i] = 0 }
        }
        let parts = ConnectedComponents(on, threshold: 0.5)
        return parts.labels.map { $0 >= 0 && parts.areas[Int($0)] >= speck }
    }

    /// The samples' per-channel median in the frame's own coordinates: what the frame holds still
    /// while the camera pans (a logo, a timestamp); elsewhere a blur of the passing background.
    static func still(_ frames: [ColorPlanes]) -> ColorPlanes? {
        guard let first = frames.first, frames.allSatisfy({ $0.width == first.width && $0.height == first.height }) else { return nil }
        let n = first.width * first.height
        var out = ColorPlanes(width: first.width, height: first.height, red: [Float](repeating: 0, count: n),
                              green: [Float](repeating: 0, count: n), blue: [Float](repeating: 0, count: n))
        var values = [Float](repeating: 0, count: frames.count)
        for i in 0..<n {
            for (k, f) in frames.enumerated() { values[k] = f.red[i] }
            out.red[i] = BackgroundPlate.median(&values, frames.count)
            for (k, f) in frames.enumerated() { values[k] = f.green[i] }
            out.green[i] = BackgroundPlate.median(&values, frames.count)
            for (k, f) in frames.enumerated() { values[k] = f.blue[i] }
            out.blue[i] = BackgroundPlate.median(&values, frames.count)
        }
        return out
    }

    /// What `present` found: the largest box the subject covers in a sample, and what the frame
    /// holds still (`still(_:)`), for every frame's `pixels`.
    struct Found: Sendable {
        var width: Int, height: Int
        var still: ColorPlanes?
    }

    /// Whether the plate's samples show a subject apart from the background and the frame: in
    /// `presentShare` of them (the plate fitting as many), at least `minimumShare` of the frame and
    /// four specks.
    func present(in samples: [BackgroundPlate.Sample], plate: BackgroundPlate, matte: PlateMatte) async -> Found? {
        let wanted = max(3, Int((presentShare * Float(samples.count)).rounded(.up)))
        guard samples.count >= wanted else { return nil }
        let still = samples.count >= 3 ? Self.still(samples.map(\.frame)) : nil
        // Each sample's pixels in a child task (independent of the others).
        let masks = await concurrentMap(samples) { sample in
            pixels(in: sample.frame, plate: plate, near: sample.offset, matte: matte, still: still)
        }.compactMap { $0 }
        guard masks.count >= wanted, let w = samples.first?.frame.width else { return nil }
        let least = max(Int((minimumShare * Float(masks[0].count)).rounded(.up)), 4 * speck)
        var showing = 0, box = (width: 0, height: 0)
        for mask in masks {
            guard mask.lazy.filter({ $0 }).count >= least else { continue }
            showing += 1
            var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
            for i in mask.indices where mask[i] {
                minX = min(minX, i % w); maxX = max(maxX, i % w); minY = min(minY, i / w); maxY = max(maxY, i / w)
            }
            box = (max(box.width, maxX - minX + 1), max(box.height, maxY - minY + 1))
        }
        guard showing >= wanted else { return nil }
        return Found(width: box.width, height: box.height, still: still)
    }
}
