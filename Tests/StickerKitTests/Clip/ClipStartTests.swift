import Foundation
import Raster
@testable import StickerKit
import Testing

/// `ClipSubjectTracker.start`: the first half second decides which of the first frame's salient
/// regions are scenery (they stay with the panned background while the subject moves apart).
@Suite("A clip's first frame: scenery or subject")
struct ClipStartTests {
    static let width = 160, height = 120

    /// Frame `k`: a textured ground panned 2 px a frame, a square fixed in it, and a disc beside
    /// the square moving 4 px a frame the other way.
    static func frame(_ k: Int) -> Image {
        var image = Image(width: width, height: height)
        for y in 0..<height { for x in 0..<width {
            let gx = x + 2 * k
            let v = UInt8((gx * 7 + y * 13 + (gx * y) % 29) % 200 + 20)
            image[x, y] = RGBA8(r: v, g: v / 2, b: 255 - v)
            if abs(gx - 50) < 20 && abs(y - 60) < 20 { image[x, y] = RGBA8(r: 250, g: UInt8((gx * 9 + y * 3) % 255), b: 40) }
            if hypot(Double(x - 100 + 4 * k), Double(y - 60)) < 14 { image[x, y] = RGBA8(r: 40, g: UInt8((x * 11 + y * 5) % 255), b: 250) }
        } }
        return image
    }

    /// The network's look at every frame: the square and the disc as they are in the first, fully
    /// salient, and between them a bridge of `bridge` (0: apart).
    static func saliency(bridge: Float) -> Plane {
        var plane = Plane(width: width, height: height)
        for y in 0..<height { for x in 0..<width {
            if x >= 70 && x <= 86 && abs(y - 60) < 6 { plane[x, y] = bridge }
            if abs(x - 50) < 20 && abs(y - 60) < 20 { plane[x, y] = 1 }
            if hypot(Double(x - 100), Double(y - 60)) < 14 { plane[x, y] = 1 }
        } }
        return plane
    }

    /// The first frame's subject (its look's saliency above ½, in pixels) after `start` saw 7 frames.
    static func firstSubjectArea(bridge: Float) async throws -> Int {
        let extractor = SubjectExtractor(predictor: FixedSaliency(plane: saliency(bridge: bridge)), style: .plain)
        let tracker = ClipSubjectTracker(extractor: extractor)
        let frames = (0..<7).map(frame)
        try await tracker.start(frames)
        let look = try await tracker.look(frames[0], seen: nil)
        return look.saliencyPlane.values.filter { $0 > 0.5 }.count
    }

    @Test("The square fixed in the panned ground is scenery beside the disc that moves apart: the first frame keeps the disc alone")
    func apartRegions() async throws {
        let area = try await Self.firstSubjectArea(bridge: 0)
        #expect(area > 450 && area < 800, "the disc (~615 px), not the square (1521 px): \(area)")
    }

    @Test("The first frame cut out ahead (prime) gives the same first look, scenery taken out, as start alone, and as the first look alone")
    func primedFirstFrame() async throws {
        let extractor = SubjectExtractor(predictor: FixedSaliency(plane: Self.saliency(bridge: 0)), style: .plain)
        let frames = (0..<7).map(Self.frame)
        let plain = ClipSubjectTracker(extractor: extractor)
        try await plain.start(frames)
        let expected = try await plain.look(frames[0], seen: nil).saliency
        let primed = ClipSubjectTracker(extractor: extractor)
        try await primed.prime(frames[0])
        try await primed.start(frames)
        #expect(try await primed.look(frames[0], seen: nil).saliency == expected)
        #expect(primed.firstCutOut?.mask == plain.firstCutOut?.mask)
        // Without `start`: the first look goes on from the primed cut-out, as from its own.
        let lone = ClipSubjectTracker(extractor: extractor)
        let alone = try await lone.look(frames[0], seen: nil).saliency
        let primedLone = ClipSubjectTracker(extractor: extractor)
        try await primedLone.prime(frames[0])
        #expect(try await primedLone.look(frames[0], seen: nil).saliency == alone)
    }

    @Test("Joined by a bridge the network is less sure of (0.6), they are still told apart")
    func joinedByAWeakBridge() async throws {
        let area = try await Self.firstSubjectArea(bridge: 0.6)
        #expect(area > 450 && area < 800, "the disc (~615 px), not the square (1521 px) and bridge: \(area)")
    }

    @Test("Regions above ½; above the finer level only when fewer than two subject-sized ones are apart at ½")
    func finerLevelOnlyWhenJoined() {
        let joined = Self.saliency(bridge: 0.6)
        #expect(ClipSubjectTracker.regions(of: joined, subjectFloor: 0.005).areas.count == 2)
        #expect(ClipSubjectTracker.regions(of: Self.saliency(bridge: 0.8), subjectFloor: 0.005).areas.count == 1,
                "joined above the finer level too: one region")
        // A speck beside one region is not a second subject: the regions at ½ stay.
        var speck = Self.saliency(bridge: 0)
        for x in 0..<2 { for y in 0..<2 { speck[x, y] = 0.6 } }
        for x in 80..<120 { for y in 40..<80 { speck[x, y] = 0 } }
        #expect(ClipSubjectTracker.regions(of: speck, subjectFloor: 0.005).areas.count == 2, "the square and the speck, at ½")
    }
}
