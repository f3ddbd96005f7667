#ifndef STICKERS_CPU_DISPATCH_H
#define STICKERS_CPU_DISPATCH_H
// Functions compiled a second time for x86-64-v3 (AVX2, BMI2…) and chosen at run time, as zlib-ng
// and simdjson do: the file itself is compiled for the architecture's baseline, so the library
// runs on any x86-64 and builds on other architectures (where SIC_X86_64_V3 is 0). A shared body
// is `SIC_ALWAYS_INLINE`, so each version gets its own copy compiled for its target.
#include <cpu_features.h>

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define SIC_X86_64_V3 1
#define SIC_TARGET_X86_64_V3 __attribute__((target("avx2,fma,bmi,bmi2,lzcnt,popcnt,f16c,movbe")))
#else
#define SIC_X86_64_V3 0
#endif
#define SIC_ALWAYS_INLINE __attribute__((always_inline))
#endif
