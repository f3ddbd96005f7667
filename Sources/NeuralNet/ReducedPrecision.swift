import Foundation

/// Which of a network's convolutions take their Winograd products in bfloat16 when the session's
/// kernels are `.avx512bf16` (issue 37). F(4×4, 3×3)'s transforms amplify bfloat16's rounding to
/// ~3 % of a layer's output (0.2 % for a direct convolution), and the cut-out does not lose that
/// error in every layer alike: BF16 everywhere misses the quality gate, BF16 in the layers of
/// `PrecisionTable.u2netp` passes it. Chosen when the network is loaded, one flag per convolution.
///
/// `STICKERS_PRECISION` sets it (read once): `mixed` the tolerant layers (unset: the same where
/// the CPU's BF16 products are faster than float's, else float: `ProductsCalibration`),
/// `fp32` float everywhere, `bf16` every layer, `bf16:98,111,13-25` the listed convolutions (for
/// measuring).
public enum ReducedPrecision: Sendable, Hashable {
    /// Every product in float: the reference path.
    case float
    /// BF16 products in the convolutions a known network's table names (`PrecisionTable`); a
    /// network the tables do not know keeps every product in float.
    case tolerantLayers
    /// BF16 products in every Winograd convolution: misses the quality gate; for comparison.
    case everyLayer
    /// BF16 products in the convolutions whose ordinals (0-based, Conv nodes in the model file's
    /// order) fall in these ranges: to measure one group of layers' effect on the cut-out.
    case layers([ClosedRange<Int>])

    /// From `STICKERS_PRECISION`'s value. Anything unrecognised keeps every product in float (the
    /// reference): a mistyped list must not silently measure something else.
    public init(environmentValue: String?) {
        let value = (environmentValue ?? "").lowercased().trimmingCharacters(in: .whitespaces)
        switch value {
        case "", "mixed": self = .tolerantLayers
        case "bf16": self = .everyLayer
        case "fp32": self = .float
        default:
            guard value.hasPrefix("bf16:") else { self = .float; return }
            var ranges: [ClosedRange<Int>] = []
            for item in value.dropFirst(5).split(separator: ",") {
                let bounds = item.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
                guard (1...2).contains(bounds.count), let low = bounds[0], let high = bounds[bounds.count - 1],
                      low >= 0, low <= high else { self = .float; return }
                ranges.append(low...high)
            }
            self = ranges.isEmpty ? .float : .layers(ranges)
        }
    }

    /// What this choice adds to a cache key of results computed with BF16 products: nil for float.
    /// The tolerant layers' key names the table's version, so a changed table is keyed apart.
    public var key: String? {
        switch self {
        case .float: nil
        case .tolerantLayers: "bf16-mixed-\(PrecisionTable.version)"
        case .everyLayer: "bf16"
        case .layers(let ranges): "bf16:" + ranges.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)-\($0.upperBound)" }
            .joined(separator: ",")
        }
    }

    /// The ordinals of the convolutions (given in the model file's order, as (output, input)
    /// channels) that take BF16 products.
    func layers(of convolutions: [(outChannels: Int, inChannels: Int)]) -> Set<Int> {
        switch self {
        case .float: []
        case .everyLayer: Set(convolutions.indices)
        case .layers(let ranges): Set(convolutions.indices.filter { i in ranges.contains { $0.contains(i) } })
        case .tolerantLayers: PrecisionTable.known.first { $0.describes(convolutions) }?.bf16Layers ?? []
        }
    }
}

extension InstructionSet {
    /// `STICKERS_PRECISION`, read once (see `ReducedPrecision`); unset, the default (`chosen(by:)`).
    public static let reducedPrecision = chosen(by: ProcessInfo.processInfo.environment["STICKERS_PRECISION"])

    /// The precision `STICKERS_PRECISION`'s value asks for; unset (or empty), the tolerant layers
    /// in BF16 where the CPU's BF16 products pay (`ProductsCalibration`), float elsewhere.
    static func chosen(by value: String?) -> ReducedPrecision {
        let unset = (value ?? "").trimmingCharacters(in: .whitespaces).isEmpty
        return unset && !ProductsCalibration.bf16Pays ? .float : ReducedPrecision(environmentValue: value)
    }

    /// What the default kernels' precision adds to a cache key under `environment`: nil when
    /// `.best` keeps every product in float there (no AVX-512 BF16, `STICKERS_PRECISION=fp32`,
    /// `STICKERS_KERNELS` narrower than AVX-512), else the choice's key. So the default on a BF16
    /// CPU is keyed apart from float results, and the default elsewhere keys as it always did.
    public static func precisionKey(environment: [String: String]) -> String? {
        guard cpuHasAVX512BF16, widest(environment["STICKERS_KERNELS"]) == nil else { return nil }
        return chosen(by: environment["STICKERS_PRECISION"]).key
    }
}
