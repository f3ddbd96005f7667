import Foundation
import Raster

/// Where a person pointed: one pixel (a tap) or a rectangle dragged around something.
public enum SubjectTarget: Sendable, Hashable {
    case point(x: Int, y: Int)
    /// x1, y1 exclusive, in the oriented photo's pixels.
    case box(x0: Int, y0: Int, x1: Int, y1: Int)
}

extension SubjectExtractor {
    /// Square crops tried, largest first, around a point the first look found nothing under: side as
    /// a fraction of the photo's longer side. A smaller crop makes the object under the point a
    /// larger part of what the network sees.
    static let closerLookSides = [0.5, 0.3, 0.18]
    /// A box is looked at with this much of its size added on every side (some background around
    /// the object is what a saliency network expects).
    static let boxMargin = 0.2
    /// A subject the first look found is looked at again, closer, when the crop around it covers at
    /// most this share of the photo.
    static let closerLookLargestShare = 0.5

    /// The sticker of the subject at `target` in `image` (oriented), given the first look's
    /// `sticker` of the same image. When the first look found a subject there and it is small in the
    /// photo, the network looks at it again alone (the crop of its box); a large one is re-cut from
    /// the kept subjects exactly as a choice of subject is (no network). Where the first look found
    /// nothing, the network looks again, closer: at crops around the point (or at the box) the
    /// subject under the point (or the crop's main subject) is cut out and placed back in the photo.
    @concurrent
    public func subject(at target: SubjectTarget, in image: Image,
                        firstLook sticker: Sticker) async throws(SubjectAtTargetError) -> Sticker {
        switch target {
        case .point(let x, let y):
            guard x >= 0, y >= 0, x < image.width, y < image.height else {
                throw .outsidePhoto(SubjectChoiceError.pointOutsidePhoto(x: x, y: y, width: image.width, height: image.height))
            }
            if let subjects = sticker.subjects, let rank = try? subjects.subject(atX: x, y: y) {
                // Found, but small in the photo: the network saw it at a fraction of its input's
                // side, so a look at it alone draws its outline better (holes, thin parts, what
                // touches it). A subject as large as the photo gains nothing from it.
                if let box = Self.closerLookBox(around: subjects.subjects[rank].bounds, in: image),
                   let found = try await closerLook(at: box, in: image, point: (x - box.x, y - box.y)) {
                    return found
                }
                return try await recut(sticker, ranks: [rank])
            }
            for fraction in Self.closerLookSides {
                let side = max(64, Int(Double(max(image.width, image.height)) * fraction))
                let crop = Self.square(side: side, around: x, y, in: image)
                if let found = try await closerLook(at: crop, in: image, point: (x - crop.x, y - crop.y)) { return found }
            }
            throw .nothingThere
        case .box(let x0, let y0, let x1, let y1):
            let bx0 = max(0, x0), by0 = max(0, y0), bx1 = min(image.width, x1), by1 = min(image.height, y1)
            guard bx0 < bx1, by0 < by1 else {
                throw .outsidePhoto(SubjectChoiceError.pointOutsidePhoto(x: x0, y: y0, width: image.width, height: image.height))
            }
            let box = Mask.Bounds(x: bx0, y: by0, width: bx1 - bx0, height: by1 - by0)
            if let subjects = sticker.subjects {
                // The first look's subjects whose inside point the box holds.
                let inside = subjects.subjects.indices.filter { rank in
                    let s = subjects.subjects[rank]
                    return s.pointX >= bx0 && s.pointX < bx1 && s.pointY >= by0 && s.pointY < by1
                }
                if !inside.isEmpty {
                    // As for a point: a box that is small in the photo is looked at closer.
                    if let crop = Self.closerLookBox(around: box, in: image),
                       let found = try await closerLook(at: crop, in: image, point: nil) {
                        return found
                    }
                    return try await recut(sticker, ranks: Set(inside))
                }
            }
            if let found = try await closerLook(at: Self.withMargin(box, in: image), in: image, point: nil) { return found }
            throw .nothingThere
        }
    }

    private func recut(_ sticker: Sticker, ranks: Set<Int>) async throws(SubjectAtTargetError) -> Sticker {
        let chosen: Sticker?
        do { chosen = try await sticker.recut(choosing: .ranks(ranks), style: style, bands: bands) } catch { throw .nothingThere }
        guard let chosen else { throw .nothingThere }
        return chosen
    }

    /// The crop a closer look at `bounds` takes (the bounds with `boxMargin` of their size on every
    /// side), or nil when that crop covers more than `closerLookLargestShare` of the photo: then the
    /// network would see the thing at about the scale it already did.
    static func closerLookBox(around bounds: Mask.Bounds, in image: Image) -> Mask.Bounds? {
        let crop = withMargin(bounds, in: image)
        let share = Double(crop.width * crop.height) / Double(image.width * image.height)
        return share <= closerLookLargestShare ? crop : nil
    }

    /// `bounds` with `boxMargin` of its size added on every side, within the photo.
    static func withMargin(_ bounds: Mask.Bounds, in image: Image) -> Mask.Bounds {
        let mx = Int(Double(bounds.width) * boxMargin), my = Int(Double(bounds.height) * boxMargin)
        let x0 = max(0, bounds.x - mx), y0 = max(0, bounds.y - my)
        let x1 = min(image.width, bounds.x + bounds.width + mx), y1 = min(image.height, bounds.y + bounds.height + my)
        return Mask.Bounds(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// A `side`-pixel square (smaller where the photo is) centred on (`x`, `y`) as far as the photo allows.
    static func square(side: Int, around x: Int, _ y: Int, in image: Image) -> Mask.Bounds {
        let w = min(side, image.width), h = min(side, image.height)
        let x0 = min(max(0, x - w / 2), image.width - w), y0 = min(max(0, y - h / 2), image.height - h)
        return Mask.Bounds(x: x0, y: y0, width: w, height: h)
    }

    /// The whole extraction on the crop `box` of `image`: with `point` (crop pixels) the subject under
    /// it, or the one whose box holds it nearest its centre; without, the crop's main subject. The
    /// result is placed back in the photo's coordinates. Nil when the crop shows nothing there.
    private func closerLook(at box: Mask.Bounds, in image: Image,
                            point: (x: Int, y: Int)?) async throws(SubjectAtTargetError) -> Sticker? {
        guard box.width >= 16, box.height >= 16 else { return nil }
        let crop = image.cropped(x: box.x, y: box.y, width: box.width, height: box.height)
        var extractor = self
        extractor.choice = .all
        extractor.located = nil
        let cut: CutOut
        do {
            cut = try await extractor.cutOut(from: crop)
        } catch .modelFailed(let reason) {
            throw .modelFailed(reason)
        } catch {
            return nil
        }
        guard let subjects = cut.subjects else { return nil }
        let ranks: [Int]
        if let point {
            if let rank = try? subjects.subject(atX: point.x, y: point.y) {
                ranks = [rank]
            } else {
                let holding = subjects.subjects.indices.filter { rank in
                    let b = subjects.subjects[rank].bounds
                    return point.x >= b.x && point.x < b.x + b.width && point.y >= b.y && point.y < b.y + b.height
                }
                func distance(_ rank: Int) -> Int {
                    let b = subjects.subjects[rank].bounds
                    let dx = b.x + b.width / 2 - point.x, dy = b.y + b.height / 2 - point.y
                    return dx * dx + dy * dy
                }
                guard let nearest = holding.min(by: { distance($0) < distance($1) }) else { return nil }
                ranks = [nearest]
            }
        } else {
            ranks = subjects.main
        }
        guard let chosen = try? subjects.cutOut(choosing: .ranks(Set(ranks))) else { return nil }
        // Back in the whole photo: the crop's mask pasted at the crop's place. The photo-wide
        // subjects stay those of the first look (this one was not among them).
        var mask = Mask(width: image.width, height: image.height)
        for y in 0..<crop.height {
            let source = y * crop.width, target = (box.y + y) * image.width + box.x
            mask.values.replaceSubrange(target..<(target + crop.width), with: chosen.mask.values[source..<(source + crop.width)])
        }
        let placed = CutOut(mask: mask, image: chosen.image, originX: box.x + chosen.originX, originY: box.y + chosen.originY,
                            subjects: nil)
        return Sticker(image: await style.apply(to: placed.image, bands: bands), mask: mask, cutOut: placed, style: style)
    }
}

/// Why the subject at a point or box cannot be cut out.
public enum SubjectAtTargetError: Error, Sendable, Equatable, CustomStringConvertible {
    case outsidePhoto(SubjectChoiceError)
    /// Neither the first look nor a closer one found anything there.
    case nothingThere
    case modelFailed(String)

    public var description: String {
        switch self {
        case .outsidePhoto(let error): error.description
        case .nothingThere: "nothing stands out there, even looked at closer"
        case .modelFailed(let reason): "the cut-out model cannot run: \(reason)"
        }
    }
}
