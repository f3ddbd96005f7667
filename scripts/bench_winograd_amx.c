// AMX (tdpbf16ps) against AVX-512 float FMA and AVX-512 BF16 (NeuralNetBF16's kernel) for the
// Winograd products, on one core, at U²-Net-p's block shapes (C input channels, K output channels,
// S slots; the 36 ξ of one block, V rounded to bfloat16 included as the network would need it).
// Tried in the nineteenth session on a CPU that reports AMX (Intel family 6 model 207) and not
// kept: docs/benchmarks.md, "AMX for the products". Needs AMX-BF16 and Linux 5.16 or later:
//
//   clang -O2 -I Sources/NeuralNetBF16/include scripts/bench_winograd_amx.c -o /tmp/bench-amx -lm && /tmp/bench-amx
// The float kernel (floatProducts), the BF16 one and now() from the BF16 bench; its main renamed.
#define main bench_winograd_bf16_main
#include "bench_winograd_bf16.c"
#undef main
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <immintrin.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#define AMX_TARGET __attribute__((target("amx-tile,amx-bf16,avx512f,avx512bw,avx512vl,avx512dq,avx512bf16")))

// Linux's arch_prctl codes (asm/prctl.h) and the tile data's XSAVE feature number.
#define ARCH_GET_XCOMP_PERM 0x1022
#define ARCH_REQ_XCOMP_PERM 0x1023
#define XFEATURE_XTILEDATA 18

static int amx_request(void) {
    unsigned int eax, ebx, ecx, edx;
    // CPUID leaf 7: EDX bit 22 AMX-BF16, bit 24 AMX-TILE; ECX of leaf 1 bit 27 OSXSAVE.
    __asm__ volatile("cpuid" : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx) : "a"(1), "c"(0));
    if (!(ecx & (1u << 27))) return 0;
    __asm__ volatile("cpuid" : "=a"(eax), "=b"(ebx), "=c"(ecx), "=d"(edx) : "a"(7), "c"(0));
    if (!(edx & (1u << 22)) || !(edx & (1u << 24))) return 0;
    // XCR0 bits 17 (TILECFG) and 18 (TILEDATA): the OS saves tile state on a context switch.
    unsigned int lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & (3u << 17)) != (3u << 17)) return 0;
    // Linux hands out the tile data's state per process, on request (5.16 and later).
    if (syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) != 0) return 0;
    unsigned long granted = 0;
    if (syscall(SYS_arch_prctl, ARCH_GET_XCOMP_PERM, &granted) != 0) return 0;
    return (granted & (1ul << XFEATURE_XTILEDATA)) != 0;
}

/// The LDTILECFG operand (palette 1).
typedef struct {
    uint8_t palette, startRow, reserved[14];
    uint16_t bytesPerRow[16];
    uint8_t rows[16];
} __attribute__((packed)) TileConfig;

AMX_TARGET static void amx_pack_filters(const float *u, long paddedOutChannels, long inChannels, long paddedPairs,
                                           uint16_t *out) {
    // One output channel's row of 2·paddedPairs input channels, 16 at a time gathered from U's
    // blocks of 4 output channels and rounded as the AVX-512 BF16 path rounds (zero past C).
    const long rowLength = 2 * paddedPairs;
    for (long xi = 0; xi < 36; xi++) {
        for (long k = 0; k < paddedOutChannels; k++) {
            const float *block = u + (xi * paddedOutChannels + k / 4 * 4) * inChannels + k % 4;
            uint16_t *o = out + (xi * paddedOutChannels + k) * rowLength;
            for (long c0 = 0; c0 < rowLength; c0 += 16) {
                float chunk[16];
                for (long i = 0; i < 16; i++) chunk[i] = c0 + i < inChannels ? block[4 * (c0 + i)] : 0;
                const long left = rowLength - c0;
                const __mmask16 mask = left >= 16 ? 0xFFFF : (__mmask16)((1u << left) - 1);
                _mm256_mask_storeu_epi16(o + c0, mask, (__m256i)_mm512_cvtneps_pbh(_mm512_loadu_ps(chunk)));
            }
        }
    }
}

AMX_TARGET static void amx_products(const uint16_t *u, const uint16_t *v, float *m, long mStride,
                                                long paddedPairs, long paddedOutChannels, long slots) {
    const long step = paddedPairs < 16 ? paddedPairs : 16;
    const long uStride = 4 * paddedPairs, vStride = 4 * slots, mBytes = 4 * mStride;
    for (long kb = 0; kb < paddedOutChannels; kb += 16) {
        const uint16_t *uRows = u + kb * 2 * paddedPairs;
        for (long column = 0; column < slots; column += 48) {
            _tile_zero(0); _tile_zero(1); _tile_zero(2);
            for (long p = 0; p < paddedPairs; p += step) {
                const uint16_t *vp = v + 2 * (p * slots + column);
                _tile_loadd(3, uRows + 2 * p, uStride);
                _tile_loadd(4, vp, vStride);
                _tile_loadd(5, vp + 32, vStride);
                _tile_loadd(6, vp + 64, vStride);
                _tile_dpbf16ps(0, 3, 4);
                _tile_dpbf16ps(1, 3, 5);
                _tile_dpbf16ps(2, 3, 6);
            }
            float *o = m + kb * mStride + column;
            _tile_stored(0, o, mBytes);
            _tile_stored(1, o + 16, mBytes);
            _tile_stored(2, o + 32, mBytes);
        }
    }
}

/// Tiles C0–C2 16 × 16 floats, A 16 rows × `step` pairs, B0–B2 `step` pairs × 16 slots.
AMX_TARGET static void amx_configure(long step) {
    TileConfig config;
    memset(&config, 0, sizeof config);
    config.palette = 1;
    for (int t = 0; t < 3; t++) { config.rows[t] = 16; config.bytesPerRow[t] = 64; }
    config.rows[3] = 16; config.bytesPerRow[3] = (uint16_t)(4 * step);
    for (int t = 4; t < 7; t++) { config.rows[t] = (uint8_t)step; config.bytesPerRow[t] = 64; }
    _tile_loadconfig(&config);
}

AMX_TARGET static void amx_release(void) { _tile_release(); }


static float noise(void) { return (float)rand() / (float)RAND_MAX - 0.5f; }

int main(void) {
    if (!amx_request()) { printf("no AMX here (CPU, XCR0 or arch_prctl)\n"); return 1; }
    const long shapes[][3] = {{16, 16, 96}, {32, 16, 96}, {64, 16, 48}, {64, 16, 96}, {128, 16, 48}, {32, 32, 96}, {64, 64, 48}, {128, 64, 48}};
    printf("   C   K   S |  float µs   bf16 µs |  AMX µs (rounding V + products) | AMX / float\n");
    for (int si = 0; si < 8; si++) {
        const long c = shapes[si][0], kp = shapes[si][1], slots = shapes[si][2];
        const long pairs = (c + 1) / 2, pp = pairs <= 16 ? pairs : (pairs + 15) / 16 * 16;
        float *u = malloc(4 * 36 * kp * c), *v = malloc(4 * 36 * c * slots), *m = malloc(4 * 36 * kp * slots);
        for (long i = 0; i < 36 * kp * c; i++) u[i] = noise();
        for (long i = 0; i < 36 * c * slots; i++) v[i] = noise();
        uint16_t *uh = malloc(2 * 36 * kp * pairs * 2), *ua = malloc(2 * 36 * kp * pp * 2), *vh = calloc(pp * slots * 2, 2);
        neuralnet_bf16_pack_filters(u, 36 * kp / 4, c, uh);
        amx_pack_filters(u, kp, c, pp, ua);
        double best[5] = {1e9, 1e9, 1e9, 1e9, 1e9};
        for (int round = 0; round < 50; round++) {
            double t = now();
            for (int xi = 0; xi < 36; xi++) floatProducts(u + xi * kp * c, v + xi * c * slots, m + xi * slots, 36 * slots, c, kp, slots);
            best[0] = fmin(best[0], now() - t);
            t = now();
            for (int xi = 0; xi < 36; xi++) {
                neuralnet_bf16_pack_inputs(v + xi * c * slots, c, slots, vh);
                neuralnet_bf16_winograd_products(uh + xi * kp * pairs * 2, vh, m + xi * slots, 36 * slots, c, kp, slots);
            }
            best[1] = fmin(best[1], now() - t);
            double rounding = 0, products = 0;
            amx_configure(pp < 16 ? pp : 16);
            for (int xi = 0; xi < 36; xi++) {
                double t0 = now();
                neuralnet_bf16_pack_inputs(v + xi * c * slots, c, slots, vh);
                double t1 = now();
                amx_products(ua + xi * kp * pp * 2, vh, m + xi * slots, 36 * slots, pp, kp, slots);
                rounding += t1 - t0; products += now() - t1;
            }
            amx_release();
            best[2] = fmin(best[2], rounding + products); best[3] = fmin(best[3], rounding); best[4] = fmin(best[4], products);
        }
        printf("%4ld %3ld %3ld | %8.1f %9.1f | %7.1f (%5.1f + %5.1f)            | %.2f\n", c, kp, slots,
               best[0] * 1e6, best[1] * 1e6, best[2] * 1e6, best[3] * 1e6, best[4] * 1e6, best[2] / best[0]);
        free(u); free(v); free(m); free(uh); free(ua); free(vh);
    }
    return 0;
}
