import Foundation
import Raster

/// Brush strokes on a cut-out, as a person paints them in an editor: `erase` removes the subject
/// where painted, `restore` adds the photo back where painted. Each is a coverage map at the
/// photo's (oriented) size, 255 = painted; its edge is softened by a small blur so a hard-edged
/// brush leaves a soft edge, while the painted inside stays exactly painted.
public struct CutOutEdits: Sendable, Hashable {
    public var erase: Mask?
    public var restore: Mask?
    /// The soft edge's blur radius as a fraction of the photo's longer side (at least 1 px).
    public var softnessFraction = 0.0015

    public init(erase: Mask? = nil, restore: Mask? = nil) {
        self.erase = erase
        self.restore = restore
    }

    public var isEmpty: Bool { erase == nil && restore == nil }

    /// A painted mask from an image of any size: its alpha when it has any transparency (a brush
    /// layer), else its brightness (white = painted); scaled to `width`×`height` when its aspect
    /// ratio matches (within 1 %), else refused.
    public static func brushMask(from image: Image, width: Int, height: Int) throws(CutOutEditError) -> Mask {
        guard image.width > 0, image.height > 0 else { throw .wrongSize(width: 0, height: 0, expectedWidth: width, expectedHeight: height) }
        let ratio = Double(image.width) / Double(image.height), expected = Double(width) / Double(height)
        guard abs(ratio / expected - 1) <= 0.01 else {
            throw .wrongSize(width: image.width, height: image.height, expectedWidth: width, expectedHeight: height)
        }
        let count = image.width * image.height
        var usesAlpha = false
        image.pixels.withUnsafeBufferPointer { px in
            for i in 0..<count where px[i * 4 + 3] != 255 { usesAlpha = true; break }
        }
        var values = [UInt8](repeating: 0, count: count)
        image.pixels.withUnsafeBufferPointer { px in
            for i in 0..<count {
                if usesAlpha {
                    values[i] = px[i * 4 + 3]
                } else {
                    let luma = (UInt32(px[i * 4]) * 54 + UInt32(px[i * 4 + 1]) * 183 + UInt32(px[i * 4 + 2]) * 19 + 128) >> 8
                    values[i] = UInt8(min(255, luma))
                }
            }
        }
        let mask = Mask(width: image.width, height: image.height, values: values)
        return mask.width == width && mask.height == height ? mask : mask.resized(width: width, height: height, filter: .bilinear)
    }

    /// Whether applying these edits needs the photo's pixels: only restored pixels take them.
    public var needsPhoto: Bool { restore != nil }

    /// `cut` with these strokes applied, for a photo `photo` (the cut-out's source, oriented): alpha
    /// lowered where erased, raised where restored (restore first, so erase wins where both are
    /// painted). Restored pixels take the photo's colour; the rest keep the cut-out's cleaned edge
    /// colours. Nil when nothing is left. `photo` may be nil when nothing is restored
    /// (`needsPhoto`): erasing only lowers alpha, so every pixel left is the cut-out's own.
    public func apply(to cut: SubjectExtractor.CutOut, photo: Image?) throws(CutOutEditError) -> SubjectExtractor.CutOut? {
        let width = cut.mask.width, height = cut.mask.height
        if let photo, photo.width != width || photo.height != height {
            throw .wrongSize(width: photo.width, height: photo.height, expectedWidth: width, expectedHeight: height)
        }
        if needsPhoto && photo == nil { throw .photoNeeded }
        for mask in [erase, restore].compactMap({ $0 }) where mask.width != width || mask.height != height {
            throw .wrongSize(width: mask.width, height: mask.height, expectedWidth: width, expectedHeight: height)
        }
        let radius = max(1, Int((Double(max(width, height)) * softnessFraction).rounded()))
        let eraseCover = erase.flatMap { Cover($0, radius: radius) }, restoreCover = restore.flatMap { Cover($0, radius: radius) }
        var alpha = cut.mask.values
        // Restore first, so erase wins where both are painted.
        func paint(_ cover: Cover?, _ blend: (Float, Float) -> Float) {
            guard let cover else { return }
            let region = cover.region
            for y in region.y..<(region.y + region.height) {
                for x in region.x..<(region.x + region.width) {
                    let c = cover.values[(y - region.y) * region.width + (x - region.x)]
                    guard c > 0 else { continue }
                    let a = blend(Float(alpha[y * width + x]) * (1 / 255), c)
                    alpha[y * width + x] = UInt8(min(255, max(0, a * 255 + 0.5)))
                }
            }
        }
        paint(restoreCover) { a, c in max(a, c) }
        paint(eraseCover) { a, c in a * (1 - c) }
        let mask = Mask(width: width, height: height, values: alpha)
        guard let box = mask.bounds else { return nil }
        var image = Image(width: box.width, height: box.height)
        let old = cut.image
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) {
                let a = alpha[y * width + x]
                guard a > 0 else { continue }
                let t = ((y - box.y) * box.width + (x - box.x)) * 4
                let ox = x - cut.originX, oy = y - cut.originY
                let inOld = ox >= 0 && oy >= 0 && ox < old.width && oy < old.height && old.pixels[(oy * old.width + ox) * 4 + 3] > 0
                // Restored: raised above what the cut-out had (by more than the box sums' rounding).
                let restored = (restoreCover?.value(x, y) ?? 0) * 255 > Float(cut.mask.values[y * width + x]) + 0.5
                if inOld && !restored {
                    let s = (oy * old.width + ox) * 4
                    image.pixels[t] = old.pixels[s]; image.pixels[t + 1] = old.pixels[s + 1]; image.pixels[t + 2] = old.pixels[s + 2]
                } else if let photo {
                    let s = (y * width + x) * 4
                    image.pixels[t] = photo.pixels[s]; image.pixels[t + 1] = photo.pixels[s + 1]; image.pixels[t + 2] = photo.pixels[s + 2]
                }
                image.pixels[t + 3] = a
            }
        }
        // The subjects' re-cut data describe the cut-out before the edit: another choice of
        // subjects starts again from them, so they are kept as they were.
        return SubjectExtractor.CutOut(mask: mask, image: image, originX: box.x, originY: box.y, subjects: cut.subjects)
    }
}

/// A brush mask's coverage (0…1) softened at the edge, kept only over the painted pixels' box grown
/// by the blur's reach: a stroke costs its own area, not the photo's.
private struct Cover {
    let region: Mask.Bounds
    let values: [Float]

    /// Nil when nothing is painted. Two box passes ≈ a tent: the inside of a stroke wider than
    /// 2·radius stays fully painted; where the painter painted fully it stays exactly 1.
    init?(_ mask: Mask, radius: Int) {
        guard let painted = mask.bounds else { return nil }
        let grow = 2 * radius + 1
        let x0 = max(0, painted.x - grow), y0 = max(0, painted.y - grow)
        let x1 = min(mask.width, painted.x + painted.width + grow), y1 = min(mask.height, painted.y + painted.height + grow)
        let w = x1 - x0, h = y1 - y0
        var plane = [Float](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { plane[y * w + x] = Float(mask.values[(y0 + y) * mask.width + x0 + x]) * (1 / 255) } }
        let soften = BoxFilter(width: w, height: h, radius: radius)
        for _ in 0..<2 { plane = soften.mean(plane) }
        for y in 0..<h { for x in 0..<w where mask.values[(y0 + y) * mask.width + x0 + x] == 255 { plane[y * w + x] = 1 } }
        region = Mask.Bounds(x: x0, y: y0, width: w, height: h)
        values = plane
    }

    /// The coverage at a photo pixel (0 outside the region).
    func value(_ x: Int, _ y: Int) -> Float {
        let rx = x - region.x, ry = y - region.y
        guard rx >= 0, ry >= 0, rx < region.width, ry < region.height else { return 0 }
        return values[ry * region.width + rx]
    }
}

/// Why brush strokes cannot be applied.
public enum CutOutEditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A painted mask whose size (aspect ratio) is not the photo's.
    case wrongSize(width: Int, height: Int, expectedWidth: Int, expectedHeight: Int)
    /// Restore strokes given without the photo whose pixels they bring back.
    case photoNeeded

    public var description: String {
        switch self {
        case .photoNeeded:
            "restoring needs the photo's pixels, and none were given"
        case .wrongSize(let width, let height, let expectedWidth, let expectedHeight):
            "the mask is \(width)×\(height) pixels; it must be the photo's displayed size, \(expectedWidth)×\(expectedHeight) (or the same shape)"
        }
    }
}

extension Sticker {
    /// The sticker with `edits` applied to its kept cut-out (no network) and styled again; nil when
    /// there is no cut-out to edit or nothing is left of it.
    @concurrent
    public func edited(_ edits: CutOutEdits, photo: Image,
                       bands: Int = ProcessInfo.processInfo.activeProcessorCount) async throws(CutOutEditError) -> Sticker? {
        guard let cutOut, let edited = try edits.apply(to: cutOut, photo: photo) else { return nil }
        return Sticker(image: await style.apply(to: edited.image, bands: bands), mask: edited.mask, cutOut: edited, style: style)
    }
}
