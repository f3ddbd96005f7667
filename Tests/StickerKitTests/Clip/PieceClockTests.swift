@testable import StickerKit
import Testing

@Suite("Clips: when each frame of a piece shows, and which frame of the clip it is")
struct PieceClockTests {
    @Test("An even clip's frames show at its rate, the last one cut at the piece's end")
    func evenFramesEndWithThePiece() {
        // A 0.5 fps clip's 3 s piece holds frames at 0 and 2 s: the second shows for 1 s, not 2 s.
        let clock = PieceClock(piece: ClipPiece(start: 0, duration: 3), frameStarts: nil, sourceRate: 0.5, step: 1)
        #expect(clock.milliseconds(ofUsed: 0) == nil)
        #expect(clock.milliseconds(ofUsed: 1) == 1000)
        #expect(clock.durations(count: 2, framesPerSecond: 0.5) == [2000, 1000])
    }

    @Test("A GIF's frames keep their own delays, merged over the frames a used one stands for")
    func ownDelaysAreMerged() {
        // Frames start at 0, 0.1, 0.6, 0.7 s; the clip ends at 1.0 s. Every other frame used.
        let clock = PieceClock(piece: ClipPiece(start: 0, duration: 3), frameStarts: [0, 0.1, 0.6, 0.7, 1.0], sourceRate: 4, step: 2)
        #expect(clock.durations(count: 2, framesPerSecond: 2) == [600, 400])
        #expect(clock.sourceIndex(ofUsed: 1) == 2)
    }

    @Test("A piece starting inside a GIF names its masks from the first frame at or after its start")
    func pieceStartNamesTheFirstFrame() {
        let clock = PieceClock(piece: ClipPiece(start: 0.5, duration: 3), frameStarts: [0, 0.1, 0.6, 0.7, 1.0], sourceRate: 4, step: 1)
        #expect(clock.sourceIndex(ofUsed: 0) == 2)
        #expect(clock.milliseconds(ofUsed: 0) == 100)
    }

    @Test("A frame ffmpeg skipped makes the timing even, the masks named by the rate")
    func aSkippedFrameDropsTheFileClock() {
        var clock = PieceClock(piece: ClipPiece(start: 0.5, duration: 3), frameStarts: [0, 0.1, 0.6, 0.7, 1.0], sourceRate: 4, step: 1)
        clock.check(delivered: 2)
        #expect(clock.frameStarts != nil, "as many frames as the file lists: its clock kept")
        clock.check(delivered: 1)
        #expect(clock.frameStarts == nil)
        #expect(clock.sourceIndex(ofUsed: 0) == 2, "0.5 s at 4 frames a second")
        #expect(clock.milliseconds(ofUsed: 0) == nil)
    }
}
