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

    /// `cut` with these strokes applied, for a photo `photo` (the cut-out's source, oriented): alpha
    /// lowered where erased, raised where restored (restore first, so erase wins where both are
    /// painted). Restored pixels take the photo's colour; the rest keep the cut-out's cleaned edge
    /// colours. Nil when nothing is left.
    public func apply(to cut: SubjectExtractor.CutOut, photo: Image) throws(CutOutEditError) -> SubjectExtractor.CutOut? {
        let width = cut.mask.width, height = cut.mask.height
        guard photo.width == width, photo.height == height else {
            throw .wrongSize(width: photo.width, height: photo.height, expectedWidth: width, expectedHeight: height)
        }
        for mask in [erase, restore].compactMap({ $0 }) where mask.width != width || mask.height != height {
            throw .wrongSize(width: mask.width, height: mask.height, expectedWidth: width, expectedHeight: height)
        }
        let radius = max(1, Int((Double(max(width, height)) * softnessFraction).rounded()))
        let soften = BoxFilter(width: width, height: height, radius: radius)
        // Two box passes ≈ a tent: the inside of a stroke wider than 2·radius stays fully painted.
        func softened(_ mask: Mask?) -> [Float]? {
            guard let mask else { return nil }
            var plane = mask.values.map { Float($0) * (1 / 255) }
            for _ in 0..<2 { plane = soften.mean(plane) }
            // Where the painter left it untouched it stays untouched: only the stroke's edge is softened.
            for i in plane.indices where mask.values[i] == 255 { plane[i] = 1 }
            return plane
        }
        let eraseCover = softened(erase), restoreCover = softened(restore)
        var alpha = cut.mask.values
        for i in 0..<(width * height) {
            var a = Float(alpha[i]) * (1 / 255)
            if let restoreCover { a = max(a, restoreCover[i]) }
            if let eraseCover { a *= 1 - eraseCover[i] }
            alpha[i] = UInt8(min(255, max(0, a * 255 + 0.5)))
        }
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
                let restored = restoreCover.map { $0[y * width + x] * 255 > Float(cut.mask.values[y * width + x]) + 0.5 } ?? false
                if inOld && !restored {
                    let s = (oy * old.width + ox) * 4
                    image.pixels[t] = old.pixels[s]; image.pixels[t + 1] = old.pixels[s + 1]; image.pixels[t + 2] = old.pixels[s + 2]
                } else {
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

/// Why brush strokes cannot be applied.
public enum CutOutEditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A painted mask whose size (aspect ratio) is not the photo's.
    case wrongSize(width: Int, height: Int, expectedWidth: Int, expectedHeight: Int)

    public var description: String {
        switch self {
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
