// The Winograd products alone, float (AVX-512F FMA, NeuralNetAVX512's 4 × 48 kernel written in C)
// against NeuralNetBF16's bfloat16 kernel, on one core, at the shapes U²-Net-p has; and the peak
// rate of each instruction (FMA, vdpbf16ps, vpdpbusd) on 12 independent chains. The minimum of many
// short trials, so a busy machine's preemptions drop out. Needs a CPU with AVX-512 BF16 and VNNI:
//
//   clang -O2 -I Sources/NeuralNetBF16/include scripts/bench_winograd_bf16.c -o /tmp/bench-bf16 && /tmp/bench-bf16
#include "../Sources/NeuralNetBF16/winograd_bf16.c"
#include <immintrin.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define KERNELS __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16,avx512vnni")))

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

KERNELS static void floatProducts(const float *u, const float *v, float *m, long mStride, long c, long kp, long slots) {
    for (long kb = 0; kb < kp / 4; kb++) {
        for (long column = 0; column < slots; column += 48) {
            __m512 a[4][3];
            for (int i = 0; i < 4; i++) for (int j = 0; j < 3; j++) a[i][j] = _mm512_setzero_ps();
            const float *vp = v + column, *up = u + kb * c * 4;
            for (long ch = 0; ch < c; ch++, vp += slots, up += 4) {
                __m512 v0 = _mm512_loadu_ps(vp), v1 = _mm512_loadu_ps(vp + 16), v2 = _mm512_loadu_ps(vp + 32);
                for (int i = 0; i < 4; i++) {
                    __m512 b = _mm512_set1_ps(up[i]);
                    a[i][0] = _mm512_fmadd_ps(b, v0, a[i][0]); a[i][1] = _mm512_fmadd_ps(b, v1, a[i][1]); a[i][2] = _mm512_fmadd_ps(b, v2, a[i][2]);
                }
            }
            for (int i = 0; i < 4; i++) for (int j = 0; j < 3; j++) _mm512_storeu_ps(m + (4 * kb + i) * mStride + column + 16 * j, a[i][j]);
        }
    }
}

#define PEAK(name, type, init, op) KERNELS static double name(void) { \
    type a[12]; for (int i = 0; i < 12; i++) a[i] = init; double t = now(); \
    for (int n = 0; n < 100000; n++) { for (int i = 0; i < 12; i++) a[i] = op; __asm__ volatile("" ::"v"(a[0]), "v"(a[6])); } \
    t = now() - t; __asm__ volatile("" ::"v"(a[1]), "v"(a[2]), "v"(a[3]), "v"(a[4]), "v"(a[5]), "v"(a[7]), "v"(a[8]), "v"(a[9]), "v"(a[10]), "v"(a[11])); return t; }
PEAK(peakFMA, __m512, _mm512_set1_ps(1), _mm512_fmadd_ps(a[i], _mm512_set1_ps(1.0001f), _mm512_set1_ps(0.5f)))
PEAK(peakBF16, __m512, _mm512_set1_ps(1), _mm512_dpbf16_ps(a[i], (__m512bh)_mm512_set1_epi32(0x3f803f80), (__m512bh)_mm512_set1_epi32(0x3f803f80)))
PEAK(peakVNNI, __m512i, _mm512_set1_epi32(1), _mm512_dpbusd_epi32(a[i], _mm512_set1_epi8(1), _mm512_set1_epi8(1)))

int main(void) {
    double best[3] = {1e9, 1e9, 1e9};
    for (int r = 0; r < 200; r++) {
        double t;
        if ((t = peakFMA()) < best[0]) best[0] = t;
        if ((t = peakBF16()) < best[1]) best[1] = t;
        if ((t = peakVNNI()) < best[2]) best[2] = t;
    }
    printf("peak, one core: FMA %.0f, vdpbf16ps %.0f, vpdpbusd %.0f G multiply-adds/s\n",
           1.2e6 * 16 / best[0] * 1e-9, 1.2e6 * 32 / best[1] * 1e-9, 1.2e6 * 64 / best[2] * 1e-9);
    const long shapes[][3] = {{3, 64, 96}, {16, 16, 96}, {16, 64, 96}, {64, 16, 48}, {32, 64, 48}, {64, 64, 48}, {128, 64, 48}};
    for (unsigned n = 0; n < sizeof shapes / sizeof shapes[0]; n++) {
        const long c = shapes[n][0], kp = shapes[n][1], slots = shapes[n][2], pairs = (c + 1) / 2;
        float *u = aligned_alloc(64, 36 * kp * c * 4 + 64), *v = aligned_alloc(64, 36 * c * slots * 4 + 64);
        float *m = aligned_alloc(64, 36 * kp * slots * 4 + 64);
        uint16_t *uh = aligned_alloc(64, 36 * kp * pairs * 4 + 64), *vh = aligned_alloc(64, pairs * slots * 4 + 64);
        for (long i = 0; i < 36 * kp * c; i++) u[i] = rand() / (float)RAND_MAX - 0.5f;
        for (long i = 0; i < 36 * c * slots; i++) v[i] = rand() / (float)RAND_MAX - 0.5f;
        neuralnet_bf16_pack_filters(u, 36 * kp / 4, c, uh);
        double f = 1e9, b = 1e9;
        for (int trial = 0; trial < 2000; trial++) {
            double t = now();
            for (int xi = 0; xi < 36; xi++) floatProducts(u + xi * kp * c, v + xi * c * slots, m + xi * slots, 36 * slots, c, kp, slots);
            if ((t = now() - t) < f) f = t;
            t = now();
            for (int xi = 0; xi < 36; xi++) {
                neuralnet_bf16_pack_inputs(v + xi * c * slots, c, slots, vh);
                neuralnet_bf16_winograd_products(uh + xi * kp * pairs * 2, vh, m + xi * slots, 36 * slots, c, kp, slots);
            }
            if ((t = now() - t) < b) b = t;
        }
        const double macs = 36.0 * kp * c * slots;
        printf("C %3ld K %3ld slots %3ld: float %6.1f us (%5.1f G/s)  bf16 with V's packing %6.1f us (%5.1f G/s)  %.2fx\n",
               c, kp, slots, f * 1e6, macs / f * 1e-9, b * 1e6, macs / b * 1e-9, f / b);
        free(u); free(v); free(m); free(uh); free(vh);
    }
    return 0;
}
