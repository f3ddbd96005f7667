import Foundation
import Raster
@testable import StickerKit
import Testing

/// A panned, textured ground seen through a 120×90 window; a yellow blob fixed in the ground (the
/// network finds it salient: scenery); a textured square moving on its own, with fractional
/// coverage at its edges (the true alpha); sensor noise.
struct PannedScene {
    static let width = 120, height = 90, frames = 12

    /// Where the ground sits in frame `k`: a ground point p is at p + offset (px, a third of a pixel off the grid).
    static func offset(_ k: Int) -> SIMD2<Float> { SIMD2(-2.4 * Float(k), -1.3 * Float(k)) }
    /// The square's top-left corner in frame `k` (it moves right, then down, faster than the pan).
    static func square(_ k: Int) -> SIMD2<Float> { SIMD2(18.3 + 5.2 * Float(k), 30.6 + 1.7 * Float(k)) }
    static let side: Float = 30
    /// The blob's centre and radius on the ground.
    static let blob = (x: Float(62), y: Float(38), r: Float(11))

    static func ground(_ x: Float, _ y: Float) -> SIMD3<Float> {
        if hypot(x - blob.x, y - blob.y) < blob.r { return SIMD3(250, 235, 30) }
        let v = 120 + 50 * sin(x / 3.1) * cos(y / 4.3) + 30 * sin((x + 2 * y) / 7.7)
        return SIMD3(v, 0.8 * v + 20, 255 - v)
    }

    /// The square's coverage of pixel (x, y) in frame `k`: the overlap of the pixel's area and the square.
    static func coverage(_ x: Int, _ y: Int, _ k: Int) -> Float {
        let corner = square(k)
        func overlap(_ p: Int, _ start: Float) -> Float { max(0, min(Float(p + 1), start + side) - max(Float(p), start)) }
        return overlap(x, corner.x) * overlap(y, corner.y)
    }

    static func frame(_ k: Int) -> (image: Image, alpha: [Float]) {
        composite(k, seed: 12_345) { x, y in coverage(x, y, k) }
    }

    /// Frame `k`: a blue, striped foreground of the given per-pixel coverage over the panned
    /// ground, with a little noise (from `seed`), and its true alpha.
    static func composite(_ k: Int, seed: UInt32, coverage: (Int, Int) -> Float) -> (image: Image, alpha: [Float]) {
        var image = Image(width: width, height: height)
        var alpha = [Float](repeating: 0, count: width * height)
        var seed: UInt32 = seed &+ UInt32(k) &* 7_919
        for y in 0..<height {
            for x in 0..<width {
                // Bilinear pan: the ground sampled at the pixel's centre, moved back by the offset.
                let g = ground(Float(x) + 0.5 - offset(k).x, Float(y) + 0.5 - offset(k).y)
                let a = coverage(x, y)
                let f = SIMD3<Float>(40, 90 + 60 * sin(Float(x + y) / 5), 210)
                var c = g * (1 - a) + f * a
                seed = seed &* 1_103_515_245 &+ 12_345
                c += SIMD3(repeating: Float(Int(seed >> 16) % 7 - 3))
                let clamped = c.clamped(lowerBound: SIMD3(repeating: 0), upperBound: SIMD3(repeating: 255))
                image[x, y] = RGBA8(r: UInt8(clamped.x), g: UInt8(clamped.y), b: UInt8(clamped.z), a: 255)
                alpha[y * width + x] = a
            }
        }
        return (image, alpha)
    }

    /// A network-like look: the square and the blob salient (merged where they touch), soft, at 40×30.
    static func look(_ k: Int) -> ClipSubjectTracker.Look { look(k, square: square(k)) }

    /// The look of frame `k` with the square's corner at `corner`.
    static func look(_ k: Int, square corner: SIMD2<Float>) -> ClipSubjectTracker.Look {
        var plane = Plane(width: 40, height: 30)
        for y in 0..<30 {
            for x in 0..<40 {
                let px = Float(x) * 3 + 1.5, py = Float(y) * 3 + 1.5
                let inSquare = px > corner.x - 1.5 && px < corner.x + side + 1.5 && py > corner.y - 1.5 && py < corner.y + side + 1.5
                let inBlob = hypot(px - offset(k).x - blob.x, py - offset(k).y - blob.y) < blob.r + 1.5
                plane[x, y] = inSquare || inBlob ? 1 : 0
            }
        }
        let fraction = (offset(k) + SIMD2(0.3, -0.2)) / SIMD2(Float(width), Float(height))  // the block matching's error
        return ClipSubjectTracker.Look(index: k, saliency: ClipSubjectTracker.Look.stored(plane), offset: fraction)
    }

    /// The blob where the first frame's look saw it, as `ClipSubjectTracker.start` finds scenery.
    static var scenery: Plane {
        var plane = Plane(width: 40, height: 30)
        for y in 0..<30 { for x in 0..<40 where hypot(Float(x) * 3 + 1.5 - blob.x, Float(y) * 3 + 1.5 - blob.y) < blob.r + 4 { plane[x, y] = 1 } }
        return plane
    }
}

@Suite("Clips: the background plate and the matte it corrects")
struct ClipPlateTests {
    func cutter(plate: BackgroundPlate?) -> ClipSubjectTracker.FrameCutter {
        ClipSubjectTracker.FrameCutter(extractor: SubjectExtractor(predictor: ContrastSaliency(), style: .plain),
                                       scenery: PannedScene.scenery, plate: plate, matte: PlateMatte(), subjectReach: 3)
    }

    @Test("Kept frames stay few and spread over a piece of any length")
    func samplesSpread() {
        for length in [5, 16, 17, 40, 1000] {
            var samples = BackgroundPlate.Samples(capacity: 8)
            let empty = BackgroundPlate.Sample(frame: ColorPlanes(width: 1, height: 1, red: [0], green: [0], blue: [0]),
                                               offset: .zero, subject: [false])
            for k in 0..<length where samples.wants(k) { samples.add(empty, index: k) }
            let kept = samples.kept.map(\.index)
            #expect(kept.count <= 8 && kept.count >= min(length, 4), "\(length): \(kept)")
            #expect(kept.first == 0)
            // Evenly spaced, reaching into the last half of the piece.
            #expect(Set(zip(kept, kept.dropFirst()).map { $1 - $0 }).count <= 1, "\(length): \(kept)")
            #expect((kept.last ?? 0) * 2 >= length - 1 - samples.stride, "\(length): \(kept)")
        }
    }

    @Test("The plate shows the ground behind the moving subject, and is unknown where the subject always was")
    func plateOfTheGround() async throws {
        let cutter = self.cutter(plate: nil)
        var samples: [BackgroundPlate.Sample] = []
        for k in 0..<PannedScene.frames {
            samples.append(try #require(await cutter.plateSample(PannedScene.frame(k).image, look: PannedScene.look(k))))
        }
        let plate = try #require(await BackgroundPlate.build(samples))
        // Seen from the last frame: where known, the ground itself (noise aside), blob included.
        let last = PannedScene.frames - 1
        let seen = plate.background(at: PannedScene.offset(last), width: PannedScene.width, height: PannedScene.height)
        var errors: [Float] = [], knownCount = 0
        for y in 0..<PannedScene.height {
            for x in 0..<PannedScene.width where seen.known[y * PannedScene.width + x] {
                let i = y * PannedScene.width + x
                let truth = PannedScene.ground(Float(x) + 0.5 - PannedScene.offset(last).x, Float(y) + 0.5 - PannedScene.offset(last).y) / 255
                errors.append(abs(seen.color.red[i] - truth.x) + abs(seen.color.green[i] - truth.y) + abs(seen.color.blue[i] - truth.z))
                knownCount += 1
            }
        }
        #expect(knownCount > PannedScene.width * PannedScene.height / 2, "\(knownCount) known")
        errors.sort()
        #expect(errors[errors.count / 2] < 0.06, "median error \(errors[errors.count / 2])")
        // A subject that never leaves a place leaves the plate unknown there: every sample saw it.
        var still = samples
        for k in still.indices { still[k].subject = samples[0].subject }
        let stillPlate = try #require(await BackgroundPlate.build(still.enumerated().map { k, sample in
            var s = sample
            s.frame = samples[0].frame
            s.offset = samples[0].offset + SIMD2(Float(k) * 0.01, 0)
            return s
        }))
        let stillSeen = stillPlate.background(at: samples[0].offset, width: PannedScene.width, height: PannedScene.height)
        let centre = Int(PannedScene.square(0).y + 15) * PannedScene.width + Int(PannedScene.square(0).x + 15)
        #expect(!stillSeen.known[centre])
    }

    @Test("A place two samples saw uncovered is known when two must agree, not when three must; two that disagree leave it unknown")
    func twoAgreeingSamplesKnowAPlace() async throws {
        let first = try #require(await cutter(plate: nil).plateSample(PannedScene.frame(0).image, look: PannedScene.look(0)))
        let cx = Int(PannedScene.square(0).x + 15), cy = Int(PannedScene.square(0).y + 15)
        let centre = cy * PannedScene.width + cx
        #expect(first.subject[centre])
        // Six views of one frame: the subject's zone left out of four, nothing left out of the last
        // two (they saw the place uncovered). `changed`: the last one shows something else there.
        func samples(changed: Bool) -> [BackgroundPlate.Sample] {
            (0..<6).map { k in
                var sample = first
                sample.offset += SIMD2(Float(k) * 0.01, 0)
                if k >= 4 { sample.subject = [Bool](repeating: false, count: first.subject.count) }
                if changed && k == 5 {
                    for y in (cy - 4)...(cy + 4) {
                        for x in (cx - 4)...(cx + 4) {
                            let i = y * PannedScene.width + x
                            sample.frame.red[i] = 1 - sample.frame.red[i]
                            sample.frame.green[i] = 1 - sample.frame.green[i]
                        }
                    }
                }
                return sample
            }
        }
        func known(_ samples: [BackgroundPlate.Sample], agreeing: Int) async throws -> Bool {
            let plate = try #require(await BackgroundPlate.build(samples, agreeing: agreeing))
            return plate.background(at: first.offset, width: PannedScene.width, height: PannedScene.height).known[centre]
        }
        #expect(try await known(samples(changed: false), agreeing: 2))
        #expect(try await !known(samples(changed: false), agreeing: 3))
        #expect(try await !known(samples(changed: true), agreeing: 2))
    }

    @Test("With the plate, a salient blob fixed in the scene leaves the mask and the square's edge alpha is right")
    func blobLeavesAndEdgesSharpen() async throws {
        let plain = cutter(plate: nil)
        var samples: [BackgroundPlate.Sample] = []
        for k in 0..<PannedScene.frames {
            samples.append(try #require(await plain.plateSample(PannedScene.frame(k).image, look: PannedScene.look(k))))
        }
        let plate = try #require(await BackgroundPlate.build(samples))
        let plated = cutter(plate: plate)
        var blobAlpha: (plain: Float, plated: Float) = (0, 0), blobPixels = 0
        var edgeError: (plain: Float, plated: Float) = (0, 0), edgePixels = 0
        var error: (plain: Float, plated: Float) = (0, 0)
        for k in 0..<PannedScene.frames {
            let (image, truth) = PannedScene.frame(k)
            let look = PannedScene.look(k)
            let without = await plain.cut(image, look: look).alpha, with = await plated.cut(image, look: look).alpha
            for y in 0..<PannedScene.height {
                for x in 0..<PannedScene.width {
                    let i = y * PannedScene.width + x
                    let a0 = Float(without.values[i]) / 255, a1 = Float(with.values[i]) / 255
                    error.plain += abs(a0 - truth[i]); error.plated += abs(a1 - truth[i])
                    let onBlob = hypot(Float(x) + 0.5 - PannedScene.offset(k).x - PannedScene.blob.x,
                                       Float(y) + 0.5 - PannedScene.offset(k).y - PannedScene.blob.y) < PannedScene.blob.r - 1
                    if onBlob && truth[i] == 0 { blobAlpha.plain += a0; blobAlpha.plated += a1; blobPixels += 1 }
                    if truth[i] > 0 && truth[i] < 1 { edgeError.plain += abs(a0 - truth[i]); edgeError.plated += abs(a1 - truth[i]); edgePixels += 1 }
                }
            }
        }
        let n = Float(blobPixels), m = Float(edgePixels)
        #expect(blobPixels > 0 && edgePixels > 0)
        #expect(blobAlpha.plain / n > 0.5, "the network's look keeps the blob: \(blobAlpha.plain / n)")
        #expect(blobAlpha.plated / n < 0.05, "the plate clears it: \(blobAlpha.plated / n)")
        #expect(edgeError.plated / m < 0.15 && edgeError.plated < edgeError.plain * 0.7,
                "edge alpha error \(edgeError.plated / m) with the plate, \(edgeError.plain / m) without")
        #expect(error.plated < error.plain * 0.5, "alpha error \(error.plated) with the plate, \(error.plain) without")
    }
}
