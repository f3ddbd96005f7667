// Unaligned 8-float loads and stores and the multiply-add of this module's kernels.
//
// These kernels are compiled twice from the same files: as NeuralNetPortable (the baseline of the
// target architecture) and, on x86-64, as NeuralNetAVX2 (x86-64-v3, defining NEURALNET_AVX2), whose
// files are links to these. NeuralNet picks one at run time from what the CPU reports.

@inline(__always)
func load8(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
func store8(_ value: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: value, as: SIMD8<Float>.self)
}

/// `sum += a · b`: one fused multiply-add per lane where the CPU has one (x86-64-v3, ARMv8), a
/// multiply then an add on baseline x86-64, where `addProduct` would be a libm `fmaf` call per lane
/// (tens of times slower). The two round differently in the last bit.
@inline(__always)
func multiplyAdd(_ sum: inout SIMD8<Float>, _ a: SIMD8<Float>, _ b: SIMD8<Float>) {
    #if NEURALNET_AVX2 || !arch(x86_64)
    sum.addProduct(a, b)
    #else
    sum += a * b
    #endif
}
