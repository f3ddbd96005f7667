#ifndef STICKERS_CPU_FEATURES_H
#define STICKERS_CPU_FEATURES_H

/// 1 when the CPU and the operating system support x86-64-v3 (AVX2, FMA, BMI1, BMI2, F16C, LZCNT,
/// MOVBE: what code compiled for Haswell may use), else 0; 0 on other architectures.
int stickers_cpu_has_x86_64_v3(void);

/// 1 when the CPU and the operating system support what code compiled for Skylake-AVX512 may use
/// (x86-64-v4: AVX-512 F, CD, BW, DQ, VL) besides x86-64-v3, else 0; 0 on other architectures.
int stickers_cpu_has_x86_64_v4(void);

/// 1 when the CPU and the operating system support AVX-512 BF16 (`vdpbf16ps`, `vcvtne2ps2bf16`)
/// besides x86-64-v4, else 0; 0 on other architectures.
int stickers_cpu_has_avx512_bf16(void);

#endif
