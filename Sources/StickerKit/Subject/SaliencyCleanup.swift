import Raster

/// Tidies the network's saliency before it is refined: keeps the main subject region(s), drops
/// specks, fills pinholes. Works at the network's resolution, where it costs nothing.
public struct SaliencyCleanup: Sendable, Hashable {
    /// A region is kept when its area is at least this fraction of the largest region's.
    public var keepFraction: Float = 0.15
    /// Enclosed background smaller than this fraction of the subject's area is filled.
    public var holeFraction: Float = 0.005
    /// Soft saliency is kept this far (in pixels) around kept regions, so edges stay soft.
    public var margin: Float = 4

    public init() {}

    public func apply(to saliency: Plane) -> Plane {
        let regions = ConnectedComponents(saliency, threshold: 0.5)
        guard let largest = regions.largest else { return Plane(width: saliency.width, height: saliency.height) }
        let minimumArea = minimumKeptArea(largest: regions.areas[Int(largest)])
        return apply(to: saliency, regions: regions, keeping: regions.areas.map { $0 >= minimumArea })
    }

    /// As `apply(to:)`, keeping the regions (of `regions`, the saliency's components above 0.5) the
    /// caller chose: all of a photo's subjects, which are then told apart after refinement.
    func apply(to saliency: Plane, regions: ConnectedComponents, keeping kept: [Bool]) -> Plane {
        let w = saliency.width, h = saliency.height
        var subjectArea = 0
        for (i, area) in regions.areas.enumerated() where kept[i] { subjectArea += area }
        guard subjectArea > 0 else { return Plane(width: w, height: h) }

        let distances = DistanceTransform.squaredDistances(width: w, height: h) { i in
            let label = regions.labels[i]
            return label >= 0 && kept[Int(label)]
        }
        var out = saliency
        let marginSquared = margin * margin
        for i in 0..<out.values.count where distances[i] > marginSquared { out.values[i] = 0 }

        // Holes: background regions enclosed by the kept subject.
        let background = ConnectedComponents(out, threshold: 0.5, inverted: true)
        let maximumHole = Float(subjectArea) * holeFraction
        for i in 0..<out.values.count {
            let label = background.labels[i]
            guard label >= 0 else { continue }
            let l = Int(label)
            if !background.touchesBorder[l] && Float(background.areas[l]) < maximumHole { out.values[i] = 1 }
        }
        return out
    }
}
