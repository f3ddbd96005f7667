/// Weighted k-means over colour samples, deterministic: k-means++ seeding from fixed seeds, the
/// best of a few trial runs on the coarse samples, refined on the fine samples, then a few
/// Weiszfeld steps that move each centre towards the geometric median of its samples (minimising
/// the sum of distances, which is what a palette's error measures, rather than squared distances).
struct WeightedKMeans {
    static let trialStarts = 4
    static let trialIterations = 10
    static let refineIterations = 20
    static let medianIterations = 10

    /// Index of each sample's nearest centre and the squared distance to it.
    private var nearest: [Int32] = []
    private var nearestDistance: [Float] = []
    private var sums: [SIMD4<Float>] = []

    mutating func cluster(fine: ColorSamples, coarse: ColorSamples, count: Int) -> [SIMD3<Float>] {
        var best: [SIMD3<Float>] = []
        var bestCost = Float.infinity
        for start in 0..<Self.trialStarts {
            var generator = SplitMix64(seed: UInt64(start))
            var centres = seeds(coarse, count: count, using: &generator)
            lloyd(coarse, &centres, iterations: Self.trialIterations)
            let cost = assign(coarse, to: centres, medianCost: true)
            if cost < bestCost { bestCost = cost; best = centres }
        }
        refine(fine, &best)
        return best
    }

    /// Lloyd iterations, then Weiszfeld steps, on the fine samples.
    mutating func refine(_ samples: ColorSamples, _ centres: inout [SIMD3<Float>]) {
        lloyd(samples, &centres, iterations: Self.refineIterations)
        weiszfeld(samples, &centres, iterations: Self.medianIterations)
    }

    /// The sample with the largest weight × squared distance to its nearest centre, if it is
    /// farther than `distance` from every centre (distances in the clustering space, which never
    /// exceed OKLab distances: lightness is scaled down).
    mutating func worstServedSample(of samples: ColorSamples, by centres: [SIMD3<Float>],
                                    fartherThan distance: Float) -> SIMD3<Float>? {
        assign(samples, to: centres, medianCost: false)
        var worst: Int?
        var worstValue: Float = 0
        for i in 0..<samples.count where nearestDistance[i] > distance * distance {
            let value = samples.weight[i] * nearestDistance[i]
            if value > worstValue { worstValue = value; worst = i }
        }
        return worst.map { point(samples, $0) }
    }

    /// The fraction of the samples' weight nearest each centre.
    mutating func assignmentWeights(of samples: ColorSamples, to centres: [SIMD3<Float>]) -> [Float] {
        _ = assign(samples, to: centres, medianCost: false)
        var weights = [Float](repeating: 0, count: centres.count)
        var total: Float = 0
        for i in 0..<samples.count {
            weights[Int(nearest[i])] += samples.weight[i]
            total += samples.weight[i]
        }
        return total > 0 ? weights.map { $0 / total } : weights
    }

    /// k-means++: the heaviest sample first, then each next centre drawn with probability
    /// proportional to weight × squared distance to the centres so far. Stops early when every
    /// sample already sits on a centre (an image with fewer colours than asked).
    private mutating func seeds(_ samples: ColorSamples, count: Int, using generator: inout SplitMix64) -> [SIMD3<Float>] {
        guard samples.count > 0 else { return [] }
        var heaviest = 0
        for i in 1..<samples.count where samples.weight[i] > samples.weight[heaviest] { heaviest = i }
        var centres = [point(samples, heaviest)]
        nearestDistance = [Float](repeating: 0, count: samples.count)
        for i in 0..<samples.count { nearestDistance[i] = squaredDistance(samples, i, centres[0]) }
        while centres.count < count {
            var total: Float = 0
            for i in 0..<samples.count { total += samples.weight[i] * nearestDistance[i] }
            guard total > 0 else { break }
            let target = Float(generator.nextUnit()) * total
            var chosen = samples.count - 1
            var running: Float = 0
            for i in 0..<samples.count {
                running += samples.weight[i] * nearestDistance[i]
                if running > target && nearestDistance[i] > 0 { chosen = i; break }
            }
            let centre = point(samples, chosen)
            centres.append(centre)
            for i in 0..<samples.count {
                nearestDistance[i] = min(nearestDistance[i], squaredDistance(samples, i, centre))
            }
        }
        return centres
    }

    /// Lloyd iterations: weighted means of the samples nearest each centre, until nothing moves.
    /// A centre left without samples moves to the sample that is worst served.
    private mutating func lloyd(_ samples: ColorSamples, _ centres: inout [SIMD3<Float>], iterations: Int) {
        var previous: [Int32] = []
        for _ in 0..<iterations {
            _ = assign(samples, to: centres, medianCost: false)
            if nearest == previous { break }
            previous = nearest
            sums = [SIMD4<Float>](repeating: .zero, count: centres.count)
            for i in 0..<samples.count {
                let w = samples.weight[i]
                sums[Int(nearest[i])] += SIMD4(w * samples.L[i], w * samples.a[i], w * samples.b[i], w)
            }
            for j in centres.indices {
                if sums[j].w > 0 {
                    centres[j] = SIMD3(sums[j].x, sums[j].y, sums[j].z) / sums[j].w
                } else if let worst = worstServed(samples) {
                    centres[j] = point(samples, worst)
                    nearestDistance[worst] = 0
                }
            }
        }
    }

    /// Weiszfeld steps: each centre becomes the mean of its samples weighted by weight / distance.
    private mutating func weiszfeld(_ samples: ColorSamples, _ centres: inout [SIMD3<Float>], iterations: Int) {
        for _ in 0..<iterations {
            _ = assign(samples, to: centres, medianCost: false)
            sums = [SIMD4<Float>](repeating: .zero, count: centres.count)
            for i in 0..<samples.count {
                let w = samples.weight[i] / max(nearestDistance[i].squareRoot(), 1e-5)
                sums[Int(nearest[i])] += SIMD4(w * samples.L[i], w * samples.a[i], w * samples.b[i], w)
            }
            for j in centres.indices where sums[j].w > 0 {
                centres[j] = SIMD3(sums[j].x, sums[j].y, sums[j].z) / sums[j].w
            }
        }
    }

    /// Assigns every sample to its nearest centre; returns the weighted sum of distances
    /// (`medianCost`) or nothing useful (0) when only the assignment is wanted.
    @discardableResult
    private mutating func assign(_ samples: ColorSamples, to centres: [SIMD3<Float>], medianCost: Bool) -> Float {
        let n = samples.count
        if nearest.count != n {
            nearest = [Int32](repeating: 0, count: n)
            nearestDistance = [Float](repeating: 0, count: n)
        }
        var cost: Float = 0
        samples.L.withUnsafeBufferPointer { L in
            samples.a.withUnsafeBufferPointer { A in
                samples.b.withUnsafeBufferPointer { B in
                    centres.withUnsafeBufferPointer { C in
                        nearest.withUnsafeMutableBufferPointer { index in
                            nearestDistance.withUnsafeMutableBufferPointer { distance in
                                for i in 0..<n {
                                    var bestJ = 0
                                    var bestD = Float.infinity
                                    for j in 0..<C.count {
                                        let dL = L[i] - C[j].x, da = A[i] - C[j].y, db = B[i] - C[j].z
                                        let d = dL * dL + da * da + db * db
                                        if d < bestD { bestD = d; bestJ = j }
                                    }
                                    index[i] = Int32(bestJ)
                                    distance[i] = bestD
                                }
                            }
                        }
                    }
                }
            }
        }
        if medianCost {
            for i in 0..<n { cost += samples.weight[i] * nearestDistance[i].squareRoot() }
        }
        return cost
    }

    private func worstServed(_ samples: ColorSamples) -> Int? {
        var worst: Int?
        var worstValue: Float = 0
        for i in 0..<samples.count where samples.weight[i] * nearestDistance[i] > worstValue {
            worstValue = samples.weight[i] * nearestDistance[i]; worst = i
        }
        return worst
    }

    @inline(__always) private func point(_ samples: ColorSamples, _ i: Int) -> SIMD3<Float> {
        SIMD3(samples.L[i], samples.a[i], samples.b[i])
    }

    @inline(__always) private func squaredDistance(_ samples: ColorSamples, _ i: Int, _ c: SIMD3<Float>) -> Float {
        let dL = samples.L[i] - c.x, da = samples.a[i] - c.y, db = samples.b[i] - c.z
        return dL * dL + da * da + db * db
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64): fixed seeds make the
/// clustering reproducible on every platform.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }
}
