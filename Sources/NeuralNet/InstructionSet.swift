import Foundation

/// Which vector instructions the convolution kernels use. NeuralNet itself is compiled for
/// x86-64-v3 (AVX2 + FMA); the AVX-512 matrix kernel is used only on CPUs that report AVX-512F.
public enum InstructionSet: Sendable, Hashable {
    case avx2
    case avx512
    /// AVX-512 when the CPU has it, else AVX2.
    case best

    /// The set actually used on this machine (`.avx512` falls back to `.avx2` without support).
    public var resolved: InstructionSet {
        switch self {
        case .avx2: .avx2
        case .avx512, .best: Self.cpuHasAVX512 ? .avx512 : .avx2
        }
    }

    /// Read once from /proc/cpuinfo (Linux x86-64); false elsewhere.
    static let cpuHasAVX512: Bool = {
        #if os(Linux) && arch(x86_64)
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let flags = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return false }
        return flags.split(separator: " ").contains("avx512f")
        #else
        return false
        #endif
    }()
}
