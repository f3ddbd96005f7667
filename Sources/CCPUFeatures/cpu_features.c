// CPUID through the compiler's __builtin_cpu_supports (libgcc/compiler-rt read CPUID and XGETBV
// once, at start-up), as zlib-ng and simdjson choose their kernels. Not /proc/cpuinfo: that file
// is Linux's, and an emulator such as qemu-user shows the host's there, not the CPU it emulates.
#include "cpu_features.h"

int stickers_cpu_has_x86_64_v3(void) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi")
        && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("lzcnt")
        && __builtin_cpu_supports("movbe");
#else
    return 0;
#endif
}

int stickers_cpu_has_x86_64_v4(void) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    __builtin_cpu_init();
    return stickers_cpu_has_x86_64_v3() && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd")
        && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    return 0;
#endif
}

int stickers_cpu_has_avx512_bf16(void) {
#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
    __builtin_cpu_init();
    return stickers_cpu_has_x86_64_v4() && __builtin_cpu_supports("avx512bf16");
#else
    return 0;
#endif
}
