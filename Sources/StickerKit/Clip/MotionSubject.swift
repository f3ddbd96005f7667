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
/// still refused. A value: frames are cut out in parallel.
public struct MotionSubject: Sendable, Hashable, Codable {
    /// A pixel is the subject's where its 3×3 patch differs from the plate by more than this many
    /// times the clearing's tolerance there (`PlateMatte.matchFactor` noise and `misplacement`
    /// of the plate's gradient): a thing apart from the background, not noise nor a plate placed
    /// a fraction of a pixel off.
    public var beyond: Float = 3
    /// Parts of the subject's pixels (8-connected) smaller than this are specks of noise.
    public var speck = 6
    /// The subject must cover at least this share of the frame…
    public var minimumShare: Float = 0.0003
    /// …in at least this share of the plate's samples that the plate fits.
    public var presentShare: Float = 0.6

    public init() {}

    /// The subject's pixels in `frame` (the working size), its background placed near `offset`
    /// against `plate`; nil when the plate does not cover most of the frame or does not fit it.
    func pixels(in frame: ColorPlanes, plate: BackgroundPlate, near offset: SIMD2<Float>, matte: PlateMatte) -> [Bool]? {
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
        let on = Plane(width: w, height: h, values: (0..<n).map { i in
            background.known[i] && patch[i] > beyond * (matte.matchFactor * noise + matte.misplacement * slope[i]) ? 1 : 0
        })
        let parts = ConnectedComponents(on, threshold: 0.5)
        return parts.labels.map { $0 >= 0 && parts.areas[Int($0)] >= speck }
    }

    /// Whether the plate's samples show a subject apart from the background: in `presentShare` of
    /// those the plate fits, at least `minimumShare` of the frame. Also the largest box it covers
    /// in a sample (its outline width is the first frame's subject's for a clip the network cut).
    func present(in samples: [BackgroundPlate.Sample], plate: BackgroundPlate, matte: PlateMatte) async -> (width: Int, height: Int)? {
        // Each sample's pixels in a child task (independent of the others).
        let masks = await concurrentMap(samples) { sample in
            (width: sample.frame.width, mask: pixels(in: sample.frame, plate: plate, near: sample.offset, matte: matte))
        }
        var fitted = 0, showing = 0, box = (width: 0, height: 0)
        for (w, mask) in masks {
            guard let mask else { continue }
            fitted += 1
            guard Float(mask.lazy.filter { $0 }.count) >= minimumShare * Float(mask.count) else { continue }
            showing += 1
            var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
            for i in mask.indices where mask[i] {
                minX = min(minX, i % w); maxX = max(maxX, i % w); minY = min(minY, i / w); maxY = max(maxY, i / w)
            }
            box = (max(box.width, maxX - minX + 1), max(box.height, maxY - minY + 1))
        }
        guard fitted >= 3, Float(showing) >= presentShare * Float(fitted) else { return nil }
        return box
    }
}
