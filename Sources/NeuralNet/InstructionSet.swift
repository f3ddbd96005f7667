import CCPUFeatures

/// Which vector kernels the convolutions use. NeuralNet itself is compiled for the architecture's
/// baseline (it runs on any x86-64 and on ARM64); the kernels are compiled once per instruction
/// set in modules of their own (NeuralNetPortable, NeuralNetAVX2, NeuralNetAVX512) and chosen here
/// from what the running CPU reports.
public enum InstructionSet: Sendable, Hashable {
    /// The baseline kernels: SSE2 on x86-64, NEON on ARM64.
    case portable
    /// x86-64-v3: AVX2 and FMA.
    case avx2
    /// x86-64-v4: AVX-512.
    case avx512
    /// The widest the CPU has.
    case best

    /// The set actually used on this machine: the one asked for, or the widest below it the CPU has.
    public var resolved: InstructionSet {
        switch self {
        case .portable: .portable
        case .avx2: Self.cpuHasAVX2 ? .avx2 : .portable
        case .avx512, .best: Self.cpuHasAVX512 ? .avx512 : Self.cpuHasAVX2 ? .avx2 : .portable
        }
    }

    /// Read once from CPUID (false on other architectures).
    static let cpuHasAVX2 = stickers_cpu_has_x86_64_v3() != 0
    static let cpuHasAVX512 = stickers_cpu_has_x86_64_v4() != 0
}
