import Raster
@testable import StickerKit
import Testing

/// A subject whose right edge is a hair fringe 8 px wide (true alpha falling linearly from 1 to 0)
/// over a plain background the plate knows, and a network-like alpha that stays at 1 over the
/// fringe's first 3 px and ramps to 0 over the last 5: too high, as on a rambutan's hair.
private struct FringeScene {
    static let width = 96, height = 48
    static let fringeStart: Float = 30, fringeWidth: Float = 8
    static let subject = SIMD3<Float>(0.85, 0.2, 0.25), ground = SIMD3<Float>(0.3, 0.55, 0.85)

    static func truth(_ x: Int) -> Float {
        let end = fringeStart + fringeWidth
        return min(1, max(0, (end - (Float(x) + 0.5)) / fringeWidth))
    }

    static func make() -> (image: ColorPlanes, foreground: ColorPlanes, background: ColorPlanes, truth: [Float], network: [Float]) {
        let n = width * height
        var r = [Float](repeating: 0, count: n), g = r, b = r, truth = r, network = r
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x, a = Self.truth(x)
                let p = subject * a + ground * (1 - a)
                r[i] = p.x; g[i] = p.y; b[i] = p.z; truth[i] = a
                // The network: solid over the fringe's first 3 px, then a ramp 5 px wide to 0.
                network[i] = min(1, max(0, (fringeStart + fringeWidth - (Float(x) + 0.5)) / 5))
            }
        }
        func flat(_ c: SIMD3<Float>) -> ColorPlanes {
            ColorPlanes(width: width, height: height, red: .init(repeating: c.x, count: n),
                        green: .init(repeating: c.y, count: n), blue: .init(repeating: c.z, count: n))
        }
        return (ColorPlanes(width: width, height: height, red: r, green: g, blue: b), flat(subject), flat(ground), truth, network)
    }
}

@Suite("PlateMatte: a fractional fringe solved against the plate, crumbs of a cleared background dropped")
struct PlateMatteFringeTests {
    @Test("Where the truth is fractional (a fringe) the alpha is solved from the plate, and no crumb rule touches it")
    func fractionalFringeSolved() {
        let scene = FringeScene.make()
        let n = scene.truth.count
        let known = [Bool](repeating: true, count: n)
        let residual = (0..<n).map { i in
            let d = SIMD3(scene.image.red[i] - scene.background.red[i], scene.image.green[i] - scene.background.green[i],
                          scene.image.blue[i] - scene.background.blue[i])
            return ((d * d).sum() / 3).squareRoot()
        }
        let matte = PlateMatte()
        let solved = matte.composited(alpha: scene.network, image: scene.image, foreground: scene.foreground,
                                      background: scene.background, known: known, noise: 1 / 255, residual: residual)
        func error(_ a: [Float]) -> Float { zip(a, scene.truth).map { abs($0 - $1) }.reduce(0, +) / Float(n) }
        // The fringe's first pixels (more than `fitRadius` from confident background) keep the network's alpha.
        #expect(error(solved) < 0.5 * error(scene.network), "\(error(solved)) vs network \(error(scene.network))")
        // At the fringe's 5th pixel (true alpha 0.44) the network says 0.7; the solve gives the truth.
        let i = (FringeScene.height / 2) * FringeScene.width + 34
        #expect(scene.network[i] > scene.truth[i] + 0.2 && abs(solved[i] - scene.truth[i]) < 0.02, "\(solved[i]) vs truth \(scene.truth[i])")
        // One part, whatever the clearing did: nothing of the fringe is a crumb.
        #expect(matte.withoutCrumbs(solved, before: scene.network, width: FringeScene.width, height: FringeScene.height) == solved)
    }

    @Test("Crumbs far smaller than the subject go with their rim; the subject and a second large part stay")
    func crumbsDropped() {
        let w = 80, h = 60
        var alpha = [Float](repeating: 0, count: w * h)
        func fill(_ xs: Range<Int>, _ ys: Range<Int>, _ v: Float) { for y in ys { for x in xs { alpha[y * w + x] = v } } }
        fill(10..<40, 10..<40, 1)   // the subject, 900 px
        fill(55..<67, 20..<32, 1)   // a second part, 144 px (16 %)
        fill(59..<63, 44..<48, 0.3) // a soft rim...
        fill(60..<62, 45..<47, 1)   // ...round a crumb of 4 px
        fill(44..<46, 10..<12, 0.8) // a crumb 5 px from the subject's edge
        // Before the clearing, the crumbs were joined to the subject by pixels it cleared; the lone speck was apart.
        var before = alpha
        for y in 12..<46 { before[y * w + 40] = 1; before[y * w + 60] = 1 }
        for x in 40..<45 { before[10 * w + x] = 1 }
        alpha[5 * w + 70] = 1; before[5 * w + 70] = 1
        let out = PlateMatte().withoutCrumbs(alpha, before: before, width: w, height: h)
        #expect(out[5 * w + 70] == 1, "a speck the network saw apart")
        #expect(out[46 * w + 60] == 0 && out[44 * w + 59] == 0, "the far crumb and its rim")
        #expect(out[10 * w + 44] == 0, "the near crumb")
        #expect(out[25 * w + 25] == 1 && out[25 * w + 60] == 1, "the subject and the second part")
        var off = PlateMatte()
        off.crumbShare = 0
        #expect(off.withoutCrumbs(alpha, before: before, width: w, height: h) == alpha)
    }
}
