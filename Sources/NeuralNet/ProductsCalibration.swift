#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if arch(x86_64)
import NeuralNetAVX512
import NeuralNetBF16
#endif

/// Whether the Winograd products in bfloat16 beat them in float on the running CPU, measured once
/// per process (~1 ms) when the default precision is first asked for.
///
/// `vdpbf16ps` does two multiply-adds a lane where an FMA does one, but a CPU may issue it at half
/// the FMA's rate: this machine kind's (Intel family 6 model 207) runs 2.9 G `vdpbf16ps` and 5.8 G
/// `vfmadd231ps` a second on one core, the same 92 G multiply-adds, and there the BF16 products
/// with their inputs' rounding took 1.65× float's CPU (a clip's whole process 12 % more). On the
/// CPU issue 37 was measured on, BF16 saved 17 % of the network. So the default takes BF16 where
/// it pays and float elsewhere; `STICKERS_PRECISION` still forces either.
public enum ProductsCalibration {
    /// BF16 must take at most this share of float's time to be chosen: a clear gain, so that a
    /// CPU where the two are close does not flip between processes (and cache keys).
    static let bf16Share = 0.85

    /// Measured once: true when the CPU has AVX-512 BF16 and its products are clearly faster.
    public static let bf16Pays: Bool = {
        guard let times = measure() else { return false }
        return times.bf16 <= bf16Share * times.float
    }()

    /// The best of several timed rounds of one convolution block's 36 products (64 input channels,
    /// 16 output channels, 48 slots: a U²-Net-p block as `WinogradConvolution` cuts it, its V in
    /// L2), in seconds of this thread's CPU, with the BF16 path's input rounding included as the
    /// network does it; nil on a CPU without AVX-512 BF16.
    public static func measure(rounds: Int = 5) -> (bf16: Double, float: Double)? {
        #if arch(x86_64)
        guard InstructionSet.cpuHasAVX512BF16 else { return nil }
        let c = 64, kp = 16, slots = 48, pairs = (c + 1) / 2
        var seed: UInt32 = 12345
        func next() -> Float {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Float(seed >> 8) / Float(1 << 24) - 0.5
        }
        let u = (0..<(36 * kp * c)).map { _ in next() }
        let v = (0..<(36 * c * slots)).map { _ in next() }
        var m = [Float](repeating: 0, count: 36 * kp * slots)
        var uHalf = [UInt16](repeating: 0, count: 36 * kp * pairs * 2)
        var vHalf = [UInt16](repeating: 0, count: pairs * slots * 2)
        u.withUnsafeBufferPointer { neuralnet_bf16_pack_filters($0.baseAddress!, 36 * kp / 4, c, &uHalf) }
        func cpuSeconds() -> Double {
            var now = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
            return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
        }
        var best = (bf16: Double.infinity, float: Double.infinity)
        u.withUnsafeBufferPointer { u in
            v.withUnsafeBufferPointer { v in
                m.withUnsafeMutableBufferPointer { m in
                    uHalf.withUnsafeBufferPointer { uHalf in
                        vHalf.withUnsafeMutableBufferPointer { vHalf in
                            let (u, v, m, uHalf, vHalf) = (u.baseAddress!, v.baseAddress!, m.baseAddress!, uHalf.baseAddress!, vHalf.baseAddress!)
                            // One warm-up round each, then the two interleaved (a frequency change or a
                            // neighbour's burst falls on both).
                            for round in 0...rounds {
                                var start = cpuSeconds()
                                for xi in 0..<36 {
                                    neuralnet_bf16_pack_inputs(v + xi * c * slots, c, slots, vHalf)
                                    neuralnet_bf16_winograd_products(uHalf + xi * kp * pairs * 2, vHalf, m + xi * slots,
                                                                     36 * slots, c, kp, slots)
                                }
                                let bf16 = cpuSeconds() - start
                                start = cpuSeconds()
                                for xi in 0..<36 {
                                    winogradProductsAVX512(u: u + xi * kp * c, v: v + xi * c * slots, m: m + xi * slots,
                                                           mStride: 36 * slots, inChannels: c, paddedOutChannels: kp, slots: slots)
                                }
                                let float = cpuSeconds() - start
                                if round > 0 { best = (min(best.bf16, bf16), min(best.float, float)) }
                            }
                        }
                    }
                }
            }
        }
        return best
        #else
        return nil
        #endif
    }
}
