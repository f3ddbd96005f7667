import Raster
@testable import StickerKit
import Testing

/// A predictor whose look at a frame is the frame's red value everywhere, slower for the earlier
/// frames (so the lanes finish out of order), failing on a frame of red 99, looking at one of red
/// 77 until cancelled, and reporting each session's thread count.
private struct LabelledSaliency: SaliencyPredicting {
    let sessions: AsyncStream<Int>.Continuation

    func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
        let label = image[0, 0].r
        if label == 99 { throw .modelFailed("frame 99") }
        // Frame 77 looks until cancelled, as the network stops between its layers.
        if label == 77 {
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            throw .modelFailed("cancelled")
        }
        // Earlier frames answer later: a lane given frame 0 is still looking when frame 1's is back.
        try? await Task.sleep(for: .milliseconds(max(0, 40 - 10 * Int(label))))
        return Plane(width: 2, height: 2, values: Array(repeating: Float(label), count: 4))
    }

    func makeSession() -> any SaliencySession { makeSession(threads: 0) }

    func makeSession(threads: Int) -> any SaliencySession {
        sessions.yield(threads)
        return Looks(predictor: self)
    }

    final class Looks: SaliencySession {
        let predictor: LabelledSaliency
        init(predictor: LabelledSaliency) { self.predictor = predictor }
        func saliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
            try await predictor.saliency(of: image)
        }
        /// A coarse look says so: its values are negative.
        func coarseSaliency(of image: Image) async throws(SubjectExtractionError) -> Plane {
            var plane = try await predictor.saliency(of: image)
            plane.values = plane.values.map { -$0 }
            return plane
        }
    }
}

private func frame(_ label: UInt8) -> Image {
    var image = Image(width: 2, height: 2)
    image[0, 0] = RGBA8(r: label, g: 0, b: 0, a: 255)
    return image
}

@Suite("Clips: the network's looks on lanes")
struct LookLanesTests {
    @Test("Each frame gets its own look, at its depth, whatever order the lanes finish in")
    func eachFrameGetsItsOwnLook() async throws {
        let (sessions, report) = AsyncStream.makeStream(of: Int.self)
        let predictor = LabelledSaliency(sessions: report)
        let seen = try await LookLanes.with(predictor: predictor, count: 2) { lanes in
            var seen: [Float] = []
            for k in 0..<6 {
                try await lanes.submit(frame(UInt8(k)), index: k, depth: k % 3 == 0 ? .full : .coarse)
                if k >= lanes.ahead { seen.append(try await lanes.saliency(of: k - lanes.ahead).values[0]) }
            }
            for k in (6 - lanes.ahead)..<6 { seen.append(try await lanes.saliency(of: k).values[0]) }
            return seen
        }
        #expect(seen == [0, -1, -2, 3, -4, -5])
        report.finish()
        var threads: [Int] = []
        for await count in sessions { threads.append(count) }
        // One session a lane, each looking on one thread.
        #expect(threads == [1, 1])
    }

    @Test("A failing look is that frame's error; the other frames' looks are unaffected")
    func aFailingLookIsThatFramesError() async throws {
        let (_, report) = AsyncStream.makeStream(of: Int.self)
        try await LookLanes.with(predictor: LabelledSaliency(sessions: report), count: 2) { lanes in
            try await lanes.submit(frame(1), index: 0, depth: .full)
            try await lanes.submit(frame(99), index: 1, depth: .full)
            try await lanes.submit(frame(2), index: 2, depth: .full)
            #expect(try await lanes.saliency(of: 0).values[0] == 1)
            await #expect(throws: SubjectExtractionError.modelFailed("frame 99")) { try await lanes.saliency(of: 1) }
            #expect(try await lanes.saliency(of: 2).values[0] == 2)
        }
    }

    @Test("Cancelling the task ends the wait for a look")
    func cancellingEndsTheWait() async throws {
        let (_, report) = AsyncStream.makeStream(of: Int.self)
        let predictor = LabelledSaliency(sessions: report)
        let task = Task {
            try await LookLanes.with(predictor: predictor, count: 1) { lanes in
                try await lanes.submit(frame(77), index: 0, depth: .full)
                withUnsafeCurrentTask { $0?.cancel() }
                // Only the cancellation ends this look: the wait ends with it, as an error.
                _ = try await lanes.saliency(of: 0)
            }
        }
        await #expect(throws: (any Error).self) { try await task.value }
    }
}
