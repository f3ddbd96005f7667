import Raster

/// Judges from the raw network output (before any stretch) whether a photo has a clear subject.
///
/// A saliency net trained on photos with one salient object answers a subject-less photo with a
/// low peak, or with a faint scatter of small, unsure blobs; a real subject gives a compact region
/// of confident values. These thresholds sit far from both kinds of output.
public struct SubjectPresence: Sendable, Hashable {
    /// Below this peak nothing is salient.
    public var minimumPeak: Float = 0.5
    /// Fraction of the frame that must be confidently salient (> 0.9).
    public var minimumCoreFraction: Float = 0.002
    /// Fraction of the frame the largest salient region (> 0.5) must cover.
    public var minimumRegionFraction: Float = 0.005
    /// Mean saliency inside that region: unsure blobs hover around 0.6.
    public var minimumRegionConfidence: Float = 0.75
    /// A "subject" filling this much of the frame is the whole picture, not a subject.
    public var maximumRegionFraction: Float = 0.97

    public init() {}

    public init(minimumCoreFraction: Float, minimumRegionConfidence: Float) {
        self.minimumCoreFraction = minimumCoreFraction
        self.minimumRegionConfidence = minimumRegionConfidence
    }

    /// Statistics of one saliency map, for the decision and for diagnostics.
    public struct Evidence: Sendable, Hashable {
        public var peak: Float
        public var coreFraction: Float
        public var regionFraction: Float
        public var regionConfidence: Float
    }

    public func evidence(in saliency: Plane) -> Evidence {
        let n = Float(max(1, saliency.values.count))
        let peak = saliency.values.max() ?? 0
        let core = Float(saliency.values.lazy.filter { $0 > 0.9 }.count) / n
        let components = ConnectedComponents(saliency, threshold: 0.5)
        guard let largest = components.largest else {
            return Evidence(peak: peak, coreFraction: core, regionFraction: 0, regionConfidence: 0)
        }
        var sum: Float = 0
        for (i, label) in components.labels.enumerated() where label == largest { sum += saliency.values[i] }
        let area = components.areas[Int(largest)]
        return Evidence(peak: peak, coreFraction: core, regionFraction: Float(area) / n,
                        regionConfidence: sum / Float(max(1, area)))
    }

    public func hasClearSubject(_ evidence: Evidence) -> Bool {
        evidence.peak >= minimumPeak
            && evidence.coreFraction >= minimumCoreFraction
            && evidence.regionFraction >= minimumRegionFraction
            && evidence.regionFraction <= maximumRegionFraction
            && evidence.regionConfidence >= minimumRegionConfidence
    }

    public func hasClearSubject(_ saliency: Plane) -> Bool { hasClearSubject(evidence(in: saliency)) }
}
