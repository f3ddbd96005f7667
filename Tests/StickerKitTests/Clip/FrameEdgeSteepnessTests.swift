@testable import StickerKit
import Testing

@Suite("FrameCutter: a frame's alpha is steepened about its middle")
struct FrameEdgeSteepnessTests {
    @Test("Steepening keeps ½, pushes the rest away from it and clamps to 0…1")
    func steepeningKeepsTheMiddle() {
        let alpha: [Float] = [0, 0.2, 0.5, 0.7, 0.9, 1]
        let out = ClipSubjectTracker.FrameCutter.steepened(alpha, by: 1.5)
        let expected: [Float] = [0, 0.05, 0.5, 0.8, 1, 1]
        for (a, b) in zip(out, expected) { #expect(abs(a - b) < 1e-6, "\(out)") }
    }

    @Test("An alpha a solve set (it differs from the unsolved one) stays as solved")
    func solvedAlphaStays() {
        let unsolved: [Float] = [0.2, 0.7, 0.9]
        let solved: [Float] = [0.2, 0.3, 0.9]
        let out = ClipSubjectTracker.FrameCutter.steepened(solved, by: 1.5, unsolved: unsolved)
        #expect(abs(out[0] - 0.05) < 1e-6 && out[1] == 0.3 && out[2] == 1, "\(out)")
    }

    @Test("A steepness of 1 leaves the alpha as it is")
    func steepnessOneChangesNothing() {
        let alpha: [Float] = [0.1, 0.45, 0.55, 0.95]
        #expect(ClipSubjectTracker.FrameCutter.steepened(alpha, by: 1) == alpha)
    }
}
