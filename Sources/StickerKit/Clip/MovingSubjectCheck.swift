import Foundation
import Raster

/// Whether the first frame's subject moves apart from its background, the clip-level half of "a
/// clear subject": a camera panning over a scene carries everything salient in it along one
/// motion, and a live sticker of that scenery is no sticker (exit 65, as a photo without a subject).
///
/// Compares the first frame with one about half a second later, both reduced to `side` px: the
/// background's motion is found by exhaustive search (mean absolute grey difference, outside the
/// subject), then the subject's own pixels are compared under that motion. Scenery: the camera
/// moved (≥ `minimumPan` px) and the subject matches as well as the background does. A still
/// camera proves nothing, so a clip of a still scene keeps its subject.
struct MovingSubjectCheck: Sendable {
    var side = 160
    var searchRadius = 16
    var minimumPan: Float = 2
    private let width: Int, height: Int
    private let grey: [Float]
    private let subject: [Bool]

    init?(frame: Image, mask: Mask, side: Int = 160) {
        self.side = side
        let scale = Double(side) / Double(max(frame.width, frame.height))
        width = max(8, Int(Double(frame.width) * scale)); height = max(8, Int(Double(frame.height) * scale))
        grey = frame.downsampled(width: width, height: height).luminance().values.map { Float($0) }
        subject = mask.resized(width: width, height: height).values.map { $0 >= 128 }
        guard subject.contains(true) else { return nil }
    }

    /// Whether `later`'s view shows the subject carried by the background's motion.
    func isScenery(_ later: Image) -> Bool {
        let other = later.downsampled(width: width, height: height).luminance().values.map { Float($0) }
        let r = min(searchRadius, min(width, height) / 4)
        var best = (cost: Float.infinity, dx: 0, dy: 0)
        for dy in -r...r {
            for dx in -r...r {
                var sum: Float = 0, n = 0
                for y in max(0, -dy)..<min(height, height - dy) {
                    let row = y * width, shifted = (y + dy) * width + dx
                    for x in max(0, -dx)..<min(width, width - dx) where !subject[row + x] {
                        sum += abs(grey[row + x] - other[shifted + x]); n += 1
                    }
                }
                guard n > width * height / 8 else { continue }
                let cost = sum / Float(n)
                if cost < best.cost { best = (cost, dx, dy) }
            }
        }
        guard best.cost.isFinite, Float(hypot(Double(best.dx), Double(best.dy))) >= minimumPan else { return false }
        var sum: Float = 0, n = 0
        for y in max(0, -best.dy)..<min(height, height - best.dy) {
            let row = y * width, shifted = (y + best.dy) * width + best.dx
            for x in max(0, -best.dx)..<min(width, width - best.dx) where subject[row + x] {
                sum += abs(grey[row + x] - other[shifted + x]); n += 1
            }
        }
        guard n > 0 else { return false }
        return sum / Float(n) < 2 * best.cost + 3
    }
}
