@testable import StickerKit
import Foundation
import Raster
import Testing

/// The plate's fast paths (issue 34) against the computations they replaced: same values, bit for bit.
@Suite("Clips: the plate's fast paths give the old values")
struct PlateFastPathTests {
    /// A small deterministic generator (the same plates on every run).
    struct Numbers: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// A textured plate with unknown patches, and a frame that sees it at `offset` (plus noise).
    static func scene(_ numbers: inout Numbers, offset: SIMD2<Float>) -> (plate: BackgroundPlate, frame: ColorPlanes, exclude: [Bool]) {
        let pw = 150, ph = 120, fw = 120, fh = 96
        func ground(_ x: Float, _ y: Float) -> SIMD3<Float> {
            SIMD3(0.5 + 0.4 * sin(x * 0.31 + y * 0.07), 0.5 + 0.3 * cos(x * 0.05 - y * 0.23), 0.4 + 0.3 * sin((x + y) * 0.13))
        }
        var r = [Float](repeating: 0, count: pw * ph), g = r, b = r, known = [Bool](repeating: true, count: pw * ph)
        for y in 0..<ph {
            for x in 0..<pw {
                let c = ground(Float(x), Float(y)), i = y * pw + x
                // Quantised to 8 bits, as frames are: many equal costs, so ties are tried too.
                r[i] = (c.x * 255).rounded() / 255; g[i] = (c.y * 255).rounded() / 255; b[i] = (c.z * 255).rounded() / 255
                known[i] = !((x / 10 + y / 13) % 7 == 0 && Int.random(in: 0..<3, using: &numbers) > 0)
            }
        }
        let plate = BackgroundPlate(width: pw, height: ph, originX: 12, originY: 9,
                                    color: ColorPlanes(width: pw, height: ph, red: r, green: g, blue: b), known: known, spread: 0.01)
        var fr = [Float](repeating: 0, count: fw * fh), fg = fr, fb = fr, exclude = [Bool](repeating: false, count: fw * fh)
        for y in 0..<fh {
            for x in 0..<fw {
                let c = ground(Float(x) - offset.x + 12, Float(y) - offset.y + 9), i = y * fw + x
                let noise = Float(Int.random(in: -3...3, using: &numbers)) / 255
                fr[i] = ((c.x + noise) * 255).rounded() / 255; fg[i] = (c.y * 255).rounded() / 255; fb[i] = ((c.z - noise) * 255).rounded() / 255
                exclude[i] = abs(x - 60) < 20 && abs(y - 50) < 25
            }
        }
        return (plate, ColorPlanes(width: fw, height: fh, red: fr, green: fg, blue: fb), exclude)
    }

    @Test("Aligning (the half-pixel grid in one pass, eighths by descent) lands where two grids searched offset by offset do, to the eighth in most trials, always within one, near the truth")
    func alignMatchesOffsetByOffset() {
        var numbers = Numbers(state: 34)
        var moved = 0, same = 0
        for trial in 0..<24 {
            let truth = SIMD2(Float.random(in: -4...4, using: &numbers), Float.random(in: -4...4, using: &numbers))
            let (plate, frame, exclude) = Self.scene(&numbers, offset: truth)
            let guess = truth + SIMD2(Float.random(in: -1.2...1.2, using: &numbers), Float.random(in: -1.2...1.2, using: &numbers))
            let fast = plate.align(frame, exclude: exclude, near: guess)
            let reference = plate.alignOffsetByOffset(frame, exclude: exclude, near: guess)
            let apart = fast - reference
            #expect(max(abs(apart.x), abs(apart.y)) <= 0.125 + 1e-4, "trial \(trial): \(fast) against \(reference)")
            let off = fast - truth
            #expect(max(abs(off.x), abs(off.y)) <= 0.25, "trial \(trial): \(fast), the truth \(truth)")
            if fast == reference { same += 1 }
            if fast != guess { moved += 1 }
        }
        #expect(same >= 20, "the same offset in \(same) of 24 trials")
        #expect(moved > 12, "the search moved the guess in \(moved) of 24 trials")
    }

    @Test("The plate as a frame sees it is the bilinear colour wherever all four plate pixels around are known")
    func backgroundMatchesBilinear() {
        var numbers = Numbers(state: 7)
        let (plate, _, _) = Self.scene(&numbers, offset: .zero)
        for offset in [SIMD2<Float>(0.3, -1.7), SIMD2(-20.125, 3.5), SIMD2(31, 29.9)] {
            let seen = plate.background(at: offset, width: 120, height: 96)
            for y in 0..<96 {
                for x in 0..<120 {
                    let q = SIMD2<Float>(Float(x), Float(y)) - offset + SIMD2(Float(plate.originX), Float(plate.originY))
                    let i = y * 120 + x
                    var expected: SIMD3<Float>?
                    if q.x >= 0, q.y >= 0, q.x < Float(plate.width - 1), q.y < Float(plate.height - 1) {
                        let j = Int(q.y) * plate.width + Int(q.x)
                        if plate.known[j], plate.known[j + 1], plate.known[j + plate.width], plate.known[j + plate.width + 1] {
                            expected = plate.color.bilinear(q)
                        }
                    }
                    #expect(seen.known[i] == (expected != nil))
                    if let expected {
                        #expect(SIMD3(seen.color.red[i], seen.color.green[i], seen.color.blue[i]) == expected)
                    }
                }
            }
        }
    }

    @Test("A sample's colour read through pointers is ColorPlanes.bilinear's, borders included")
    func sampleViewMatchesBilinear() {
        var numbers = Numbers(state: 11)
        let (_, frame, exclude) = Self.scene(&numbers, offset: SIMD2(1.3, -0.4))
        let sample = BackgroundPlate.Sample(frame: frame, offset: SIMD2(2.5, -1.25), subject: exclude)
        SampleView.with([sample, sample]) { views in
            #expect(views.count == 2 && views[1].offset == sample.offset)
            for _ in 0..<5_000 {
                let q = SIMD2(Float.random(in: 0...Float(frame.width - 1), using: &numbers),
                              Float.random(in: 0...Float(frame.height - 1), using: &numbers))
                #expect(views[0].bilinear(q) == frame.bilinear(q), "at \(q)")
            }
            for q in [SIMD2<Float>(0, 0), SIMD2(Float(frame.width - 1), Float(frame.height - 1)), SIMD2(Float(frame.width - 1), 3.5)] {
                #expect(views[1].bilinear(q) == frame.bilinear(q), "at \(q)")
            }
        }
    }

    @Test("A sorting network's medians are the insertion sort's, channel by channel, for 1 to 16 values")
    func networkMediansMatchInsertionSort() {
        var numbers = Numbers(state: 1)
        for _ in 0..<300 {
            for used in 1...LaneMedians.capacity {
                // Quantised values: many repeats.
                let lanes = (0..<3).map { _ in (0..<used).map { _ in Float(Int.random(in: 0..<9, using: &numbers)) / 255 } }
                var values = LaneMedians()
                for i in 0..<used { values[i] = SIMD4(lanes[0][i], lanes[1][i], lanes[2][i], 0) }
                let medians = values.medians(used)
                for c in 0..<3 {
                    var scalar = lanes[c]
                    #expect(medians[c] == BackgroundPlate.median(&scalar, used), "\(used) values")
                }
                #expect((1..<used).allSatisfy { values[$0 - 1][0] <= values[$0][0] }, "sorted")
            }
        }
    }
}

@Suite("Clips: growing a subject's zone row by row")
struct GrownRowByRowTests {
    @Test("Growing row by row gives the column-by-column result, for any size and reach")
    func grownMatchesColumnByColumn() {
        var numbers = PlateFastPathTests.Numbers(state: 3)
        for (w, h) in [(1, 1), (1, 7), (9, 1), (17, 13), (64, 40)] {
            for reach in [0, 1, 2, 3, 8, 40] {
                for density in [0, 2, 30, 95] {
                    let values = (0..<(w * h)).map { _ in Int.random(in: 0..<100, using: &numbers) < density ? Float(0.9) : Float(0.2) }
                    let plane = Plane(width: w, height: h, values: values)
                    #expect(ClipSubjectTracker.grown(plane, by: reach) == ClipSubjectTracker.grownColumnByColumn(plane, by: reach),
                            "\(w)×\(h), reach \(reach), density \(density)")
                }
            }
        }
    }
}

extension BackgroundPlate {
    /// The plate's colour at plate position `q` (bilinear), nil where not known: as `align` read it
    /// before its texels.
    func referenceSample(_ q: SIMD2<Float>) -> SIMD3<Float>? {
        guard q.x >= 0, q.y >= 0, q.x < Float(width - 1), q.y < Float(height - 1) else { return nil }
        let x0 = Int(q.x), y0 = Int(q.y), i = y0 * width + x0
        guard known[i], known[i + 1], known[i + width], known[i + width + 1] else { return nil }
        return color.bilinear(q)
    }

    /// `align` as it was: a grid of halves, then of eighths, one pass over the points per offset (the
    /// reference its fast path is measured against).
    func alignOffsetByOffset(_ frame: ColorPlanes, exclude: [Bool], near guess: SIMD2<Float>) -> SIMD2<Float> {
        let fw = frame.width, fh = frame.height
        // Every fourth pixel of every fourth row, outside the subject.
        var points: [(p: SIMD2<Float>, c: SIMD3<Float>)] = []
        for y in Swift.stride(from: 2, to: fh - 2, by: 4) {
            for x in Swift.stride(from: 2, to: fw - 2, by: 4) where !exclude[y * fw + x] {
                let i = y * fw + x
                points.append((SIMD2(Float(x), Float(y)), SIMD3(frame.red[i], frame.green[i], frame.blue[i])))
            }
        }
        guard points.count >= 200 else { return guess }
        let origin = SIMD2(Float(originX), Float(originY))
        func cost(_ offset: SIMD2<Float>, every: Int) -> Float {
            var sum: Float = 0, n = 0, tried = 0
            for point in Swift.stride(from: 0, to: points.count, by: every).lazy.map({ points[$0] }) {
                tried += 1
                guard let c = referenceSample(point.p - offset + origin) else { continue }
                let d = point.c - c
                sum += abs(d.x) + abs(d.y) + abs(d.z); n += 1
            }
            return n * 4 >= tried ? sum / Float(n) : .infinity
        }
        // The coarse grid on a third of the points (it only has to land within a quarter pixel).
        var best = (offset: guess, cost: Float.infinity)
        for (step, every): (Float, Int) in [(0.5, 3), (0.125, 1)] {
            let centre = best.offset
            best.cost = cost(centre, every: every)
            for j in -3...3 {
                for i in -3...3 where i != 0 || j != 0 {
                    let candidate = centre + SIMD2(Float(i), Float(j)) * step
                    let c = cost(candidate, every: every)
                    if c < best.cost { best = (candidate, c) }
                }
            }
        }
        return best.offset
    }
}

extension ClipSubjectTracker {
    /// `grown` as it was, column by column (the reference it is pinned against in a test).
    static func grownColumnByColumn(_ plane: Plane, by reach: Int) -> [Bool] {
        let w = plane.width, h = plane.height
        var rows = [Bool](repeating: false, count: w * h)
        for y in 0..<h {
            var lastOn = Int.min / 2
            for x in 0..<(w + reach) {
                if x < w && plane.values[y * w + x] > 0.5 { lastOn = x }
                let target = x - reach
                if target >= 0 && target < w && x - lastOn <= 2 * reach { rows[y * w + target] = true }
            }
        }
        var out = [Bool](repeating: false, count: w * h)
        for x in 0..<w {
            var lastOn = Int.min / 2
            for y in 0..<(h + reach) {
                if y < h && rows[y * w + x] { lastOn = y }
                let target = y - reach
                if target >= 0 && target < h && y - lastOn <= 2 * reach { out[target * w + x] = true }
            }
        }
        return out
    }
}
