import Raster

/// The separate subjects of a photo, found in the network's saliency (at its own resolution, where
/// this costs nothing): each confident region (> 0.5) that is not a speck is one subject.
///
/// Objects that touch, or that the saliency joins with a confident bridge, form one region and so
/// one subject: the network gives no instance boundaries, so neither do we.
struct SubjectRegions: Sendable {
    /// Saliency width and height.
    let width: Int
    let height: Int
    /// The regions' indexes in `ConnectedComponents` numbering, in rank order (most saliency first).
    let ranked: [Int]
    /// Per region (component numbering): whether it is a subject.
    let isSubject: [Bool]
    /// Each subject's saliency mass (sum of its values), in rank order.
    let masses: [Float]
    /// Ranks (0-based) of the subjects today's single-subject cut-out keeps (see `SaliencyCleanup`).
    let main: [Int]
    /// Per saliency cell: the rank of the nearest subject (8-connected steps), so every photo pixel
    /// belongs to exactly one subject and a subject's soft edge stays with it.
    let owners: [UInt8]
    /// Per rank: the cell deepest inside the subject (farthest from its outline).
    let innermost: [Int]

    /// Beyond this many subjects the rest are left out (their pixels go to the nearest kept one).
    static let maximumCount = 255

    /// Which regions are subjects, in what order, and which are the main ones: the cheap part of
    /// finding the subjects, and all the clean-up needs (`SaliencyCleanup.apply(to:regions:keeping:)`),
    /// so the refinement can start while the owners and innermost cells are still being found.
    struct Ranking: Sendable {
        /// Per region (component numbering): whether it is a subject.
        let isSubject: [Bool]
        /// Subjects' region indexes, most saliency first.
        let ranked: [Int]
        /// Each subject's saliency mass, in rank order.
        let masses: [Float]
        /// Ranks of the main subjects.
        let main: [Int]

        /// - Parameters:
        ///   - cleanup: its `keepFraction` decides the main subjects, as it did before subjects existed.
        ///   - minimumFraction: a region this large (fraction of the frame) is a subject even when it is
        ///     much smaller than the main one; smaller ones are specks (`SubjectPresence`'s own floor).
        init(saliency: Plane, regions: ConnectedComponents, cleanup: SaliencyCleanup, minimumFraction: Float) {
            let n = saliency.width * saliency.height
            var isSubject = [Bool](repeating: false, count: regions.areas.count)
            var masses = [Float](repeating: 0, count: regions.areas.count)
            for i in 0..<n where regions.labels[i] >= 0 { masses[Int(regions.labels[i])] += saliency.values[i] }
            var mainRegions = Set<Int>()
            if let largest = regions.largest {
                let mainArea = cleanup.minimumKeptArea(largest: regions.areas[Int(largest)])
                let floor = Int((Float(n) * minimumFraction).rounded(.up))
                for (r, area) in regions.areas.enumerated() {
                    if area >= mainArea { mainRegions.insert(r); isSubject[r] = true }
                    if area >= floor { isSubject[r] = true }
                }
            }
            // Most saliency first; ties (identical regions) by raster order, so the order is stable.
            var ranked = isSubject.indices.filter { isSubject[$0] }
                .sorted { masses[$0] != masses[$1] ? masses[$0] > masses[$1] : $0 < $1 }
            if ranked.count > SubjectRegions.maximumCount {
                for r in ranked[SubjectRegions.maximumCount...] where !mainRegions.contains(r) { isSubject[r] = false }
                ranked = ranked.filter { isSubject[$0] }
            }
            self.ranked = ranked
            self.isSubject = isSubject
            self.masses = ranked.map { masses[$0] }
            main = ranked.indices.filter { mainRegions.contains(ranked[$0]) }
        }
    }

    /// - Parameters: as `Ranking`'s.
    init(saliency: Plane, regions: ConnectedComponents, cleanup: SaliencyCleanup, minimumFraction: Float) {
        self.init(Ranking(saliency: saliency, regions: regions, cleanup: cleanup, minimumFraction: minimumFraction),
                  width: saliency.width, height: saliency.height, regions: regions)
    }

    /// The subjects `ranking` found in `regions` of a `width`×`height` saliency, with each cell's
    /// owner and each subject's innermost cell (the costly part: a breadth-first search and a
    /// distance transform over the saliency's grid).
    init(_ ranking: Ranking, width: Int, height: Int, regions: ConnectedComponents) {
        self.width = width; self.height = height
        ranked = ranking.ranked
        isSubject = ranking.isSubject
        masses = ranking.masses
        main = ranking.main
        var rankOf = [Int](repeating: -1, count: regions.areas.count)
        for (rank, r) in ranked.enumerated() { rankOf[r] = rank }
        owners = Self.nearestOwners(width: width, height: height, labels: regions.labels, rankOf: rankOf)
        innermost = Self.innermostCells(width: width, height: height, labels: regions.labels, ranked: ranked)
    }

    /// Multi-source breadth-first search from every subject cell: each cell takes the rank of the
    /// subject that reaches it first (nearest in 8-connected steps; ties to the earlier-queued one).
    private static func nearestOwners(width w: Int, height h: Int, labels: [Int32], rankOf: [Int]) -> [UInt8] {
        let n = w * h
        var owners = [UInt8](repeating: 0, count: n)
        var reached = [Bool](repeating: false, count: n)
        var queue = [Int32]()
        queue.reserveCapacity(n)
        for i in 0..<n where labels[i] >= 0 && rankOf[Int(labels[i])] >= 0 {
            owners[i] = UInt8(rankOf[Int(labels[i])]); reached[i] = true; queue.append(Int32(i))
        }
        guard !queue.isEmpty else { return owners }
        var head = 0
        while head < queue.count {
            let i = Int(queue[head]); head += 1
            let x = i % w, y = i / w
            for dy in -1...1 {
                let ny = y + dy
                guard ny >= 0 && ny < h else { continue }
                for dx in -1...1 {
                    let nx = x + dx
                    guard nx >= 0 && nx < w else { continue }
                    let j = ny * w + nx
                    if !reached[j] { reached[j] = true; owners[j] = owners[i]; queue.append(Int32(j)) }
                }
            }
        }
        return owners
    }

    /// Per subject, the cell farthest from every cell outside it: a point surely inside, even for a
    /// ring or a crescent whose centroid is not.
    private static func innermostCells(width w: Int, height h: Int, labels: [Int32], ranked: [Int]) -> [Int] {
        guard !ranked.isEmpty else { return [] }
        // Distance to the nearest cell not in the same region (the frame's outside counts as outside).
        var best = [Int](repeating: -1, count: ranked.count)
        var bestDistance = [Float](repeating: -1, count: ranked.count)
        var rankOfRegion = [Int: Int]()
        for (rank, r) in ranked.enumerated() { rankOfRegion[r] = rank }
        // Padded by one cell so the frame's edge is outside.
        let pw = w + 2, ph = h + 2
        let distances = DistanceTransform.squaredDistances(width: pw, height: ph) { p in
            let x = p % pw - 1, y = p / pw - 1
            guard x >= 0, y >= 0, x < w, y < h else { return true }
            let label = labels[y * w + x]
            return label < 0 || rankOfRegion[Int(label)] == nil
        }
        for y in 0..<h {
            for x in 0..<w {
                let label = labels[y * w + x]
                guard label >= 0, let rank = rankOfRegion[Int(label)] else { continue }
                let d = distances[(y + 1) * pw + x + 1]
                if d > bestDistance[rank] { bestDistance[rank] = d; best[rank] = y * w + x }
            }
        }
        return best
    }
}

extension SaliencyCleanup {
    /// The smallest region kept beside a largest one of `largest` cells.
    func minimumKeptArea(largest: Int) -> Int {
        Int((Float(largest) * keepFraction).rounded(.up))
    }
}
