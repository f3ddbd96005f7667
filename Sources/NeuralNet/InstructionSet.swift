import CCPUFeatures
import Foundation

/// Which vector kernels the convolutions use. NeuralNet itself is compiled for the architecture's
/// baseline (it runs on any x86-64 and on ARM64); the kernels are compiled once per instruction
/// set in modules of their own (NeuralNetPortable, NeuralNetAVX2, NeuralNetAVX512, NeuralNetBF16)
/// and chosen here from what the running CPU reports.
public enum InstructionSet: Sendable, Hashable {
    /// The baseline kernels: SSE2 on x86-64, NEON on ARM64.
    case portable
    /// x86-64-v3: AVX2 and FMA.
    case avx2
    /// x86-64-v4: AVX-512, every product in float (the reference path).
    case avx512
    /// x86-64-v4 plus AVX-512 BF16: AVX-512's kernels, with the Winograd products (the bulk of the
    /// multiply-adds) in bfloat16 with float sums, twice the multiply-adds per instruction, in the
    /// convolutions the network's `ReducedPrecision` chose when it was loaded (float in the others).
    /// F(4×4, 3×3)'s transforms amplify bfloat16's rounding to ~3 % of a layer's output, so only the
    /// layers whose error the cut-out tolerates take it (issue 37; docs/benchmarks.md).
    case avx512bf16
    /// The widest kernels the CPU has: AVX-512 BF16, AVX-512, AVX2, portable (no wider than
    /// `STICKERS_KERNELS`; AVX-512 in float when `STICKERS_PRECISION=fp32`).
    case best

    /// The set actually used on this machine: the one asked for, or the widest below it the CPU has.
    public var resolved: InstructionSet {
        switch self {
        case .portable: .portable
        case .avx2: Self.cpuHasAVX2 ? .avx2 : .portable
        case .avx512: Self.cpuHasAVX512 ? .avx512 : InstructionSet.avx2.resolved
        case .avx512bf16: Self.cpuHasAVX512BF16 ? .avx512bf16 : InstructionSet.avx512.resolved
        case .best:
            switch Self.widestAllowed {
            case .portable?: .portable
            case .avx2?: InstructionSet.avx2.resolved
            default: Self.reducedPrecision == .float ? InstructionSet.avx512.resolved : InstructionSet.avx512bf16.resolved
            }
        }
    }

    /// Whether the AVX-512 (16-lane) transforms and products apply.
    var hasAVX512: Bool { self == .avx512 || self == .avx512bf16 }

    /// Read once from CPUID (false on other architectures).
    static let cpuHasAVX2 = stickers_cpu_has_x86_64_v3() != 0
    static let cpuHasAVX512 = stickers_cpu_has_x86_64_v4() != 0
    static let cpuHasAVX512BF16 = stickers_cpu_has_avx512_bf16() != 0

    /// `STICKERS_KERNELS=portable|avx2`: the widest kernels `.best` may take (read once; unset or
    /// anything else: the widest the CPU has). For comparing the paths on one machine, and for
    /// counting instructions under valgrind (`scripts/perf_guard.sh`): valgrind has no AVX-512 and
    /// runs AVX2's fused multiply-adds lane by lane, so a cut-out with the portable kernels (the
    /// AVX2 kernels' own Swift source, compiled for the baseline) is ~11× faster there.
    static let widestAllowed = widest(ProcessInfo.processInfo.environment["STICKERS_KERNELS"])

    /// The widest kernels `STICKERS_KERNELS`'s value allows (nil: no limit).
    static func widest(_ value: String?) -> InstructionSet? {
        switch value?.lowercased() {
        case "portable": .portable
        case "avx2": .avx2
        default: nil
        }
    }
}
