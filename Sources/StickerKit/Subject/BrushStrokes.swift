import Foundation
import Raster

/// Brush strokes as an editor records them: a compact list the page replays (for its preview,
/// undo and redo) and the engine rasterises into the erase and restore masks of `CutOutEdits`.
///
///     {"width": 1024, "height": 768,
///      "strokes": [{"mode": "erase", "radius": 12, "points": [[100, 120], [104, 126], …]}, …]}
///
/// `width`×`height` is the size the strokes were painted at (the photo's displayed size, or any
/// size of its shape); points and radii are in those pixels and are scaled to the cut-out's size.
/// A stroke covers every pixel within `radius` of its polyline (a lone point: a dot). Strokes are
/// replayed in order, so a later stroke wins where two overlap: restoring over an erase brings
/// the subject back, as it does in the page's preview.
public struct BrushStrokes: Sendable, Hashable, Codable {
    public struct Stroke: Sendable, Hashable, Codable {
        public enum Mode: String, Sendable, Hashable, Codable, CaseIterable {
            case erase, restore
        }

        public var mode: Mode
        public var radius: Int
        /// `[x, y]` pairs, in the painted-at pixels.
        public var points: [[Int]]

        public init(mode: Mode, radius: Int, points: [[Int]]) {
            self.mode = mode
            self.radius = radius
            self.points = points
        }
    }

    public var width: Int
    public var height: Int
    public var strokes: [Stroke]

    public init(width: Int, height: Int, strokes: [Stroke]) {
        self.width = width
        self.height = height
        self.strokes = strokes
    }

    /// At most this many strokes (an editing session's worth; the page keeps undo history itself).
    public static let maximumStrokes = 500
    /// At most this many points over all strokes (the page drops points closer than a fraction
    /// of the brush to the last one, so a long stroke stays a few dozen points).
    public static let maximumPoints = 20_000
    public static let radii = 1...1000
    public static let sides = 1...20_000
    /// The most pixel visits rasterising may take (about half a second of one core).
    public static let maximumPixelVisits = 300e6

    public var isEmpty: Bool { strokes.isEmpty }
    /// Whether any stroke restores (and so needs the photo's pixels).
    public var restores: Bool { strokes.contains { $0.mode == .restore } }

    /// What can be checked without a photo: the limits above, every point a pair.
    public func validate() throws(BrushStrokesError) {
        guard Self.sides.contains(width), Self.sides.contains(height) else {
            throw .invalid("the painted-at size must be between \(Self.sides.lowerBound) and \(Self.sides.upperBound) pixels a side, not \(width)×\(height)")
        }
        guard strokes.count <= Self.maximumStrokes else {
            throw .invalid("at most \(Self.maximumStrokes) strokes, not \(strokes.count)")
        }
        let points = strokes.reduce(0) { $0 + $1.points.count }
        guard points <= Self.maximumPoints else {
            throw .invalid("at most \(Self.maximumPoints) points over all strokes, not \(points)")
        }
        for (index, stroke) in strokes.enumerated() {
            guard Self.radii.contains(stroke.radius) else {
                throw .invalid("stroke \(index + 1): the radius must be between \(Self.radii.lowerBound) and \(Self.radii.upperBound) pixels, not \(stroke.radius)")
            }
            guard !stroke.points.isEmpty else { throw .invalid("stroke \(index + 1) has no points") }
            let limit = 4 * max(width, height)
            for point in stroke.points {
                guard point.count == 2 else { throw .invalid("stroke \(index + 1): a point is [x, y], not \(point)") }
                guard abs(point[0]) <= limit, abs(point[1]) <= limit else {
                    throw .invalid("stroke \(index + 1): the point \(point) is far outside the \(width)×\(height) picture")
                }
            }
        }
    }

    /// The strokes as erase and restore masks for a `width`×`height` cut-out (the painted-at size
    /// scaled; its shape must be the cut-out's within 1 %, as `CutOutEdits.brushMask` asks of a
    /// mask file). Replayed in order: each stroke sets its own mask and clears the other.
    public func edits(width: Int, height: Int) throws(BrushStrokesError) -> CutOutEdits {
        try validate()
        let ratio = Double(self.width) / Double(self.height), expected = Double(width) / Double(height)
        guard abs(ratio / expected - 1) <= 0.01 else {
            throw .wrongSize(CutOutEditError.wrongSize(width: self.width, height: self.height, expectedWidth: width, expectedHeight: height))
        }
        let sx = Double(width) / Double(self.width), sy = Double(height) / Double(self.height)
        // Each segment visits the pixels of its box: bounded, so no list of strokes can hold a
        // core for long (the page's strokes cost a few million visits).
        var visits = 0.0
        for stroke in strokes {
            let radius = Double(stroke.radius) * (sx + sy) / 2
            for i in stroke.points.indices {
                let a = stroke.points[max(0, i - 1)], b = stroke.points[i]
                let w = min(Double(width), Double(abs(a[0] - b[0])) * sx + 2 * radius + 2)
                let h = min(Double(height), Double(abs(a[1] - b[1])) * sy + 2 * radius + 2)
                visits += w * h
            }
        }
        guard visits <= Self.maximumPixelVisits else {
            throw .invalid("the strokes are too many and too wide to paint (\(Int(visits / 1e6)) million pixel visits, at most \(Int(Self.maximumPixelVisits / 1e6))): use fewer, or a smaller brush")
        }
        var erase = [UInt8](repeating: 0, count: width * height), restore = erase
        var erased = false, restored = false
        for stroke in strokes {
            let radius = max(0.5, Double(stroke.radius) * (sx + sy) / 2)
            let points = stroke.points.map { (x: (Double($0[0]) + 0.5) * sx, y: (Double($0[1]) + 0.5) * sy) }
            let isErase = stroke.mode == .erase
            if isErase { erased = true } else { restored = true }
            func paint(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) {
                let x0 = max(0, Int((min(a.x, b.x) - radius).rounded(.down))), x1 = min(width - 1, Int((max(a.x, b.x) + radius).rounded(.up)))
                let y0 = max(0, Int((min(a.y, b.y) - radius).rounded(.down))), y1 = min(height - 1, Int((max(a.y, b.y) + radius).rounded(.up)))
                guard x0 <= x1, y0 <= y1 else { return }
                let dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy, r2 = radius * radius
                for y in y0...y1 {
                    let py = Double(y) + 0.5
                    for x in x0...x1 {
                        let px = Double(x) + 0.5
                        // Distance from the pixel's centre to the segment.
                        let t = length2 > 0 ? min(1, max(0, ((px - a.x) * dx + (py - a.y) * dy) / length2)) : 0
                        let ex = px - (a.x + t * dx), ey = py - (a.y + t * dy)
                        guard ex * ex + ey * ey <= r2 else { continue }
                        let i = y * width + x
                        if isErase { erase[i] = 255; restore[i] = 0 } else { restore[i] = 255; erase[i] = 0 }
                    }
                }
            }
            if points.count == 1 { paint(points[0], points[0]) }
            for i in points.indices.dropFirst() { paint(points[i - 1], points[i]) }
        }
        return CutOutEdits(erase: erased ? Mask(width: width, height: height, values: erase) : nil,
                           restore: restored ? Mask(width: width, height: height, values: restore) : nil)
    }
}

/// Why brush strokes cannot be used.
public enum BrushStrokesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Beyond a limit, or malformed (the reason in words).
    case invalid(String)
    /// Painted at a size whose shape is not the cut-out's.
    case wrongSize(CutOutEditError)

    public var description: String {
        switch self {
        case .invalid(let reason): reason
        case .wrongSize(let error): error.description
        }
    }
}
