import Foundation
import Raster
@testable import StickerKit
import Testing

/// A flat-coloured square with fractional coverage at its edges over a ground, and a network-like
/// alpha for it: right inside and outside, a ramp 5 px wide across the edge (the guided filter's).
private struct SquareOnGround {
    static let width = 80, height = 64
    static let corner = SIMD2<Float>(20.4, 17.7), side: Float = 30

    static func scene(ground: (Int, Int) -> SIMD3<Float>) -> (planes: ColorPlanes, truth: [Float], network: [Float]) {
        let n = width * height
        var r = [Float](repeating: 0, count: n), g = r, b = r, truth = r, network = r
        for y in 0..<height {
            for x in 0..<width {
                func overlap(_ p: Int, _ start: Float) -> Float { max(0, min(Float(p + 1), start + side) - max(Float(p), start)) }
                let a = overlap(x, corner.x) * overlap(y, corner.y)
                let p = ground(x, y) * (1 - a) + SIMD3<Float>(0.15, 0.25, 0.85) * a
                // Distance inside the square's border (px, negative outside), the network's ramp over ±2.5 px.
                let cx = Float(x) + 0.5, cy = Float(y) + 0.5
                let inside = min(cx - corner.x, corner.x + side - cx, cy - corner.y, corner.y + side - cy)
                let i = y * width + x
                r[i] = p.x; g[i] = p.y; b[i] = p.z; truth[i] = a
                network[i] = min(1, max(0, (inside + 2.5) / 5))
            }
        }
        return (ColorPlanes(width: width, height: height, red: r, green: g, blue: b), truth, network)
    }

    static func foreground(_ planes: ColorPlanes) -> ColorPlanes {
        let n = planes.width * planes.height
        return ColorPlanes(width: planes.width, height: planes.height, red: .init(repeating: 0.15, count: n),
                           green: .init(repeating: 0.25, count: n), blue: .init(repeating: 0.85, count: n))
    }
}

@Suite("Clips: the edge's alpha solved against the smooth background nearby where no plate knows it")
struct ClipLocalMatteTests {
    @Test("Over a smooth background the edge's alpha comes from the compositing equation, near the truth")
    func smoothGroundSolved() {
        let scene = SquareOnGround.scene { x, y in SIMD3(0.9 - 0.0015 * Float(x), 0.75, 0.2 + 0.0015 * Float(y)) }
        let solved = PlateMatte().locallyComposited(alpha: scene.network, image: scene.planes,
                                                    foreground: SquareOnGround.foreground(scene.planes), skip: nil)
        func error(_ a: [Float]) -> Float { zip(a, scene.truth).map { abs($0 - $1) }.reduce(0, +) }
        #expect(error(solved) < 0.5 * error(scene.network), "\(error(solved)) vs \(error(scene.network))")
    }

    @Test("Over a textured background, or where told to skip, or when off, the network's alpha stays")
    func texturedGroundKept() {
        let textured = SquareOnGround.scene { x, y in
            SIMD3(0.5 + 0.4 * sin(Float(x) * 1.7) * cos(Float(y) * 1.3), 0.5 + 0.3 * sin(Float(x + 2 * y) * 0.9), 0.4)
        }
        let foreground = SquareOnGround.foreground(textured.planes)
        #expect(PlateMatte().locallyComposited(alpha: textured.network, image: textured.planes, foreground: foreground, skip: nil)
                == textured.network)
        let smooth = SquareOnGround.scene { _, _ in SIMD3(0.9, 0.75, 0.2) }
        let everywhere = [Bool](repeating: true, count: smooth.truth.count)
        #expect(PlateMatte().locallyComposited(alpha: smooth.network, image: smooth.planes, foreground: foreground, skip: everywhere)
                == smooth.network)
        var off = PlateMatte()
        off.solvesLocally = false
        #expect(off.locallyComposited(alpha: smooth.network, image: smooth.planes, foreground: foreground, skip: nil) == smooth.network)
    }
}
