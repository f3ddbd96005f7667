import Foundation
import Raster

/// Which of a photo's subjects a sticker keeps.
public enum SubjectChoice: Sendable, Hashable {
    /// What suits a photo of one subject: the most salient region and any of comparable size
    /// (`SaliencyCleanup.keepFraction`), as the cut-out has always done.
    case main
    /// Every subject.
    case all
    /// These subjects, by 0-based rank in `PhotoSubjects.subjects`.
    case ranks(Set<Int>)
}

/// Why a choice of subjects cannot be cut out.
public enum SubjectChoiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A rank (0-based) beyond the photo's subjects.
    case noSuchSubject(rank: Int, count: Int)
    /// The pixel lies outside the photo.
    case pointOutsidePhoto(x: Int, y: Int, width: Int, height: Int)
    /// The pixel is background.
    case noSubjectAt(x: Int, y: Int)
    /// The choice keeps nothing.
    case nothingChosen

    public var description: String {
        switch self {
        case .noSuchSubject(let rank, let count):
            "there is no subject \(rank + 1): the photo has \(count) subject\(count == 1 ? "" : "s")"
        case .pointOutsidePhoto(let x, let y, let width, let height):
            "the point \(x),\(y) is outside the photo (\(width)×\(height) pixels)"
        case .noSubjectAt(let x, let y): "no subject at \(x),\(y)"
        case .nothingChosen: "no subject chosen"
        }
    }
}

/// A photo's separate subjects, and what is needed to cut out any choice of them again without the
/// network or the refinement: the unstyled cut-out of all of them together and which subject each
/// pixel belongs to. Re-cutting is one pass over that cut-out, then the sticker style.
///
/// Subjects are told apart by the network's saliency only: objects that touch, or that the saliency
/// joins, are one subject.
public struct PhotoSubjects: Sendable, Hashable {
    /// One subject, in the oriented photo's pixels.
    public struct Subject: Sendable, Hashable {
        /// The smallest rectangle holding the subject's nonzero alpha.
        public var bounds: Mask.Bounds
        /// A pixel surely inside the subject (alpha ≥ 50 %), far from its outline where possible.
        public var pointX: Int
        public var pointY: Int
        /// The subject's share of all subjects' saliency (the shares add up to 1).
        public var share: Double

        public init(bounds: Mask.Bounds, pointX: Int, pointY: Int, share: Double) {
            self.bounds = bounds; self.pointX = pointX; self.pointY = pointY; self.share = share
        }
    }

    /// In rank order: most salient first.
    public var subjects: [Subject]
    /// Ranks (0-based) of the main subjects (`SubjectChoice.main`).
    public var main: [Int]
    /// Ranks (0-based, sorted) of the subjects the sticker holding these keeps: the choice is kept.
    public var chosen: [Int]
    /// The photo's size.
    public var width: Int
    public var height: Int
    /// All subjects cut out together: the photo cropped to their union, straight alpha, edge colours
    /// cleaned (as `SubjectExtractor.CutOut.image`), at (`originX`, `originY`) in the photo.
    public var cutOut: Image
    public var originX: Int
    public var originY: Int
    /// Which subject (rank) each cell of an `ownersWidth`×`ownersHeight` grid over the photo
    /// belongs to: the saliency's grid, each cell given to its nearest subject.
    public var owners: [UInt8]
    public var ownersWidth: Int
    public var ownersHeight: Int

    public init(subjects: [Subject], main: [Int], width: Int, height: Int, cutOut: Image, originX: Int, originY: Int,
                owners: [UInt8], ownersWidth: Int, ownersHeight: Int) {
        self.subjects = subjects; self.main = main; self.chosen = main; self.width = width; self.height = height
        self.cutOut = cutOut; self.originX = originX; self.originY = originY
        self.owners = owners; self.ownersWidth = ownersWidth; self.ownersHeight = ownersHeight
    }

    /// The ranks `choice` keeps, sorted; throws for a rank beyond the subjects or an empty choice.
    public func ranks(of choice: SubjectChoice) throws(SubjectChoiceError) -> [Int] {
        switch choice {
        case .main: return main
        case .all: return Array(subjects.indices)
        case .ranks(let ranks):
            if let bad = ranks.sorted().first(where: { !subjects.indices.contains($0) }) {
                throw .noSuchSubject(rank: bad, count: subjects.count)
            }
            guard !ranks.isEmpty else { throw .nothingChosen }
            return ranks.sorted()
        }
    }

    /// The rank of the subject under pixel (`x`, `y`) of the photo.
    public func subject(atX x: Int, y: Int) throws(SubjectChoiceError) -> Int {
        guard x >= 0, y >= 0, x < width, y < height else {
            throw .pointOutsidePhoto(x: x, y: y, width: width, height: height)
        }
        let cx = x - originX, cy = y - originY
        guard cx >= 0, cy >= 0, cx < cutOut.width, cy < cutOut.height,
              cutOut.pixels[(cy * cutOut.width + cx) * 4 + 3] >= 128 else { throw .noSubjectAt(x: x, y: y) }
        return Int(owners[ownerCell(x: x, y: y)])
    }

    /// The chosen subjects' unstyled cut-out and full-size mask; nil when they have no pixels.
    /// Two passes over the union's crop (the kept pixels' box, then the copy), reading each pixel's
    /// owner from its saliency cell: 2 MP in a few milliseconds.
    public func cutOut(choosing choice: SubjectChoice) throws(SubjectChoiceError) -> SubjectExtractor.CutOut? {
        let ranks = try ranks(of: choice)
        let w = cutOut.width, h = cutOut.height
        guard !ranks.isEmpty else { return nil }
        if ranks.count == subjects.count {
            // Every subject: the union as it stands.
            var mask = Mask(width: width, height: height)
            guard w > 0, h > 0 else { return nil }
            for y in 0..<h {
                let source = y * w, target = (originY + y) * width + originX
                for x in 0..<w { mask.values[target + x] = cutOut.pixels[(source + x) * 4 + 3] }
            }
            return SubjectExtractor.CutOut(mask: mask, image: cutOut, originX: originX, originY: originY,
                                           subjects: choosing(ranks))
        }
        var keep = [Bool](repeating: false, count: 256)
        for rank in ranks { keep[rank] = true }
        let columns = (0..<w).map { Int32(ownerColumn(originX + $0)) }
        let rows = (0..<h).map { ownerRow(originY + $0) * ownersWidth }
        // Whether a pixel of the union's crop is kept: some alpha, and its cell's owner chosen.
        func kept(_ px: UnsafeBufferPointer<UInt8>, _ owner: UnsafeBufferPointer<UInt8>,
                  _ keep: UnsafeBufferPointer<Bool>, _ column: UnsafeBufferPointer<Int32>, _ x: Int, _ y: Int) -> Bool {
            px[(y * w + x) * 4 + 3] != 0 && keep[Int(owner[rows[y] + Int(column[x])])]
        }
        var minX = w, minY = h, maxX = -1, maxY = -1
        cutOut.pixels.withUnsafeBufferPointer { px in owners.withUnsafeBufferPointer { owner in
            keep.withUnsafeBufferPointer { keep in columns.withUnsafeBufferPointer { column in
                for y in 0..<h {
                    var first = -1
                    for x in 0..<w where kept(px, owner, keep, column, x, y) { first = x; break }
                    guard first >= 0 else { continue }
                    var last = first
                    for x in stride(from: w - 1, to: first, by: -1) where kept(px, owner, keep, column, x, y) { last = x; break }
                    minX = min(minX, first); maxX = max(maxX, last); minY = min(minY, y); maxY = y
                }
            } }
        } }
        guard maxX >= 0 else { return nil }
        let box = Mask.Bounds(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
        var mask = Mask(width: width, height: height)
        var image = Image(width: box.width, height: box.height)
        let maskWidth = width, ox = originX, oy = originY
        cutOut.pixels.withUnsafeBufferPointer { px in owners.withUnsafeBufferPointer { owner in
            keep.withUnsafeBufferPointer { keep in columns.withUnsafeBufferPointer { column in
                mask.values.withUnsafeMutableBufferPointer { m in image.pixels.withUnsafeMutableBufferPointer { out in
                    for y in box.y..<(box.y + box.height) {
                        let target = (oy + y) * maskWidth + ox
                        var t = (y - box.y) * box.width * 4
                        for x in box.x..<(box.x + box.width) {
                            defer { t += 4 }
                            guard kept(px, owner, keep, column, x, y) else { continue }
                            let s = (y * w + x) * 4
                            m[target + x] = px[s + 3]
                            out[t] = px[s]; out[t + 1] = px[s + 1]; out[t + 2] = px[s + 2]; out[t + 3] = px[s + 3]
                        }
                    }
                } }
            } }
        } }
        return SubjectExtractor.CutOut(mask: mask, image: image, originX: originX + box.x, originY: originY + box.y,
                                       subjects: choosing(ranks))
    }

    /// These subjects with `ranks` as the choice kept.
    func choosing(_ ranks: [Int]) -> PhotoSubjects {
        var copy = self
        copy.chosen = ranks
        return copy
    }

    private func ownerColumn(_ x: Int) -> Int { min(ownersWidth - 1, x * ownersWidth / max(1, width)) }
    private func ownerRow(_ y: Int) -> Int { min(ownersHeight - 1, y * ownersHeight / max(1, height)) }
    private func ownerCell(x: Int, y: Int) -> Int { ownerRow(y) * ownersWidth + ownerColumn(x) }
}

extension PhotoSubjects {
    /// The subjects of a photo whose union cut-out is `union` (its crop at `originX`, `originY`),
    /// found in the saliency as `regions`: each subject's box and an inside point from the pixels it
    /// owns. Subjects left without a pixel of alpha (too faint after refinement) are dropped.
    init(regions: SubjectRegions, width: Int, height: Int, union: Image, originX: Int, originY: Int) {
        let count = regions.ranked.count
        var bare = PhotoSubjects(subjects: [], main: regions.main, width: width, height: height, cutOut: union,
                                 originX: originX, originY: originY, owners: regions.owners,
                                 ownersWidth: regions.width, ownersHeight: regions.height)
        // Boxes from the owned pixels with any alpha.
        var minX = [Int](repeating: .max, count: count), minY = minX
        var maxX = [Int](repeating: -1, count: count), maxY = maxX
        let columns = (0..<union.width).map { bare.ownerColumn(originX + $0) }
        for y in 0..<union.height {
            let rowBase = bare.ownerRow(originY + y) * regions.width
            for x in 0..<union.width where union.pixels[(y * union.width + x) * 4 + 3] != 0 {
                let r = Int(regions.owners[rowBase + columns[x]])
                minX[r] = min(minX[r], x); maxX[r] = max(maxX[r], x)
                minY[r] = min(minY[r], y); maxY[r] = max(maxY[r], y)
            }
        }
        let present = (0..<count).filter { maxX[$0] >= 0 }
        let total = present.reduce(Float(0)) { $0 + regions.masses[$1] }
        var subjects: [Subject] = []
        for r in present {
            let bounds = Mask.Bounds(x: originX + minX[r], y: originY + minY[r],
                                     width: maxX[r] - minX[r] + 1, height: maxY[r] - minY[r] + 1)
            let (px, py) = bare.insidePoint(rank: r, cell: regions.innermost[r], bounds: bounds)
            subjects.append(Subject(bounds: bounds, pointX: px, pointY: py,
                                    share: total > 0 ? Double(regions.masses[r] / total) : 0))
        }
        // Renumber when some subject vanished, so ranks stay 0..<count.
        if present.count != count {
            var newRank = [UInt8](repeating: 0, count: 256)
            for (i, r) in present.enumerated() { newRank[r] = UInt8(i) }
            // A vanished subject's cells go to the first remaining one; they hold no alpha anyway.
            bare.owners = regions.owners.map { present.contains(Int($0)) ? newRank[Int($0)] : 0 }
            bare.main = regions.main.compactMap { r in present.firstIndex(of: r) }
            bare.chosen = bare.main
        }
        bare.subjects = subjects
        self = bare
    }

    /// The centre of the subject's innermost saliency cell when the cut-out holds it there (alpha ≥ 128,
    /// owned by the subject), else the subject's opaque pixel nearest to that centre.
    private func insidePoint(rank: Int, cell: Int, bounds: Mask.Bounds) -> (Int, Int) {
        let cx = min(width - 1, Int((Double(cell % ownersWidth) + 0.5) * Double(width) / Double(ownersWidth)))
        let cy = min(height - 1, Int((Double(cell / ownersWidth) + 0.5) * Double(height) / Double(ownersHeight)))
        func isInside(_ x: Int, _ y: Int) -> Bool {
            let ux = x - originX, uy = y - originY
            guard ux >= 0, uy >= 0, ux < cutOut.width, uy < cutOut.height else { return false }
            return cutOut.pixels[(uy * cutOut.width + ux) * 4 + 3] >= 128 && Int(owners[ownerCell(x: x, y: y)]) == rank
        }
        if isInside(cx, cy) { return (cx, cy) }
        var best = (bounds.x, bounds.y), bestDistance = Int.max
        for y in bounds.y..<(bounds.y + bounds.height) {
            for x in bounds.x..<(bounds.x + bounds.width) where isInside(x, y) {
                let d = (x - cx) * (x - cx) + (y - cy) * (y - cy)
                if d < bestDistance { bestDistance = d; best = (x, y) }
            }
        }
        return best
    }
}

extension Sticker {
    /// The same photo's sticker keeping the subjects `choice` names, cut from `subjects` (no network,
    /// no refinement) and styled with `style`; nil when the sticker has no subjects to choose from.
    @concurrent
    public func recut(choosing choice: SubjectChoice, style: StickerStyle,
                      bands: Int = ProcessInfo.processInfo.activeProcessorCount) async throws(SubjectChoiceError) -> Sticker? {
        guard let subjects, let cut = try subjects.cutOut(choosing: choice) else { return nil }
        return Sticker(image: await style.apply(to: cut.image, bands: bands), mask: cut.mask, cutOut: cut, style: style)
    }
}
