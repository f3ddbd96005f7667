// The Winograd convolution's matrix products with 512-bit vectors, for CPUs with AVX-512F.
//
// A module of its own because Swift compiles a whole module for one CPU: this one Skylake-AVX512
// (x86-64-v4), and NeuralNet calls in here only after CPUID says the running CPU has it. Same
// arithmetic in the same order as NeuralNetAVX2's kernel (one FMA per input channel into each
// output), so results are bit-identical.

/// For one ξ: m[k·mStride + s] = Σ_c u[k/4][c][k%4] · v[c][s] for k < paddedK and s < slots (a
/// multiple of 48), with u packed in blocks of 4 output channels as NeuralNet's WinogradFilter stores it.
public func winogradProductsAVX512(u: UnsafePointer<Float>, v: UnsafePointer<Float>, m: UnsafeMutablePointer<Float>,
                                   mStride: Int, inChannels: Int, paddedOutChannels: Int, slots: Int) {
    for kb in 0..<(paddedOutChannels / 4) {
        let uBlock = u + kb * inChannels * 4
        let mBlock = m + 4 * kb * mStride
        var column = 0
        while column < slots {
            var a00 = SIMD16<Float>(), a01 = SIMD16<Float>(), a02 = SIMD16<Float>()
            var a10 = SIMD16<Float>(), a11 = SIMD16<Float>(), a12 = SIMD16<Float>()
            var a20 = SIMD16<Float>(), a21 = SIMD16<Float>(), a22 = SIMD16<Float>()
            var a30 = SIMD16<Float>(), a31 = SIMD16<Float>(), a32 = SIMD16<Float>()
            var vp = v + column, up = uBlock
            for _ in 0..<inChannels {
                let v0 = load16(vp), v1 = load16(vp + 16), v2 = load16(vp + 32)
                let u0 = SIMD16(repeating: up[0]), u1 = SIMD16(repeating: up[1])
                let u2 = SIMD16(repeating: up[2]), u3 = SIMD16(repeating: up[3])
                a00.addProduct(u0, v0); a01.addProduct(u0, v1); a02.addProduct(u0, v2)
                a10.addProduct(u1, v0); a11.addProduct(u1, v1); a12.addProduct(u1, v2)
                a20.addProduct(u2, v0); a21.addProduct(u2, v1); a22.addProduct(u2, v2)
                a30.addProduct(u3, v0); a31.addProduct(u3, v1); a32.addProduct(u3, v2)
                vp += slots
                up += 4
            }
            let out = mBlock + column
            store16(a00, out); store16(a01, out + 16); store16(a02, out + 32)
            store16(a10, out + mStride); store16(a11, out + mStride + 16); store16(a12, out + mStride + 32)
            store16(a20, out + 2 * mStride); store16(a21, out + 2 * mStride + 16); store16(a22, out + 2 * mStride + 32)
            store16(a30, out + 3 * mStride); store16(a31, out + 3 * mStride + 16); store16(a32, out + 3 * mStride + 32)
            column += 48
        }
    }
}
