// AVX-512 BF16 kernels for the Winograd products (see include/neuralnet_bf16.h). Swift has no
// intrinsics for these instructions: C with per-function target attributes, so the file compiles
// with the package's baseline flags and nothing here runs unless NeuralNet has checked CPUID.
//
// Measured alone (scripts/bench_winograd_bf16.c, one core, AMD EPYC Zen 4): the float kernel
// (4 output channels × 48 slots, one FMA per input channel) runs at ~59 G multiply-adds/s, the
// FMA port's limit; this one at ~115 G/s, 2×, and ~105 G/s counting the packing of V.
#include "neuralnet_bf16.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

#define BF16_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16")))

BF16_TARGET void neuralnet_bf16_pack_filters(const float *u, long blocks, long inChannels, uint16_t *out) {
    // Two pairs of input channels (16 floats: [c][k] for 4 channels × 4 outputs) per step, rounded
    // to 16 bfloat16 and reordered [pair][k][c & 1]; a masked load zero-fills past the last channel.
    const __m256i order = _mm256_set_epi16(15, 11, 14, 10, 13, 9, 12, 8, 7, 3, 6, 2, 5, 1, 4, 0);
    const long pairs = (inChannels + 1) / 2;
    for (long b = 0; b < blocks; b++) {
        const float *block = u + b * inChannels * 4;
        uint16_t *o = out + b * pairs * 8;
        for (long p = 0; p < pairs; p += 2) {
            const long floats = (inChannels - 2 * p) * 4;
            const __mmask16 in = floats >= 16 ? 0xFFFF : (__mmask16)((1u << floats) - 1);
            const __mmask16 outMask = pairs - p >= 2 ? 0xFFFF : 0x00FF;
            __m256bh rounded = _mm512_cvtneps_pbh(_mm512_maskz_loadu_ps(in, block + 2 * p * 4));
            _mm256_mask_storeu_epi16(o + p * 8, outMask, _mm256_permutexvar_epi16(order, (__m256i)rounded));
        }
    }
}

BF16_TARGET void neuralnet_bf16_pack_inputs(const float *v, long inChannels, long slots, uint16_t *out) {
    // cvtne2ps puts channel c's 16 slots in the low half and c + 1's in the high half; the
    // permutation interleaves them slot by slot.
    const __m512i order = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8,
                                           23, 7, 22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    for (long c = 0; c < inChannels; c += 2) {
        const float *a = v + c * slots, *b = a + slots;
        const int paired = c + 1 < inChannels;
        uint16_t *o = out + c * slots;
        for (long s = 0; s < slots; s += 16) {
            const __m512 high = paired ? _mm512_loadu_ps(b + s) : _mm512_setzero_ps();
            __m512bh rounded = _mm512_cvtne2ps_pbh(high, _mm512_loadu_ps(a + s));
            _mm512_storeu_si512(o + 2 * s, _mm512_permutexvar_epi16(order, (__m512i)rounded));
        }
    }
}

BF16_TARGET void neuralnet_bf16_winograd_products(const uint16_t *u, const uint16_t *v, float *m, long mStride,
                                                  long inChannels, long paddedOutChannels, long slots) {
    // 4 output channels × 48 slots: 12 accumulators, 3 loads of V and 4 broadcast pairs of U per
    // pair of input channels. Measured against 8 × 48 (24 accumulators): no faster.
    const long pairs = (inChannels + 1) / 2;
    for (long kb = 0; kb < paddedOutChannels / 4; kb++) {
        const uint32_t *uBlock = (const uint32_t *)u + kb * pairs * 4;
        float *mBlock = m + 4 * kb * mStride;
        for (long column = 0; column < slots; column += 48) {
            __m512 a00 = _mm512_setzero_ps(), a01 = _mm512_setzero_ps(), a02 = _mm512_setzero_ps();
            __m512 a10 = _mm512_setzero_ps(), a11 = _mm512_setzero_ps(), a12 = _mm512_setzero_ps();
            __m512 a20 = _mm512_setzero_ps(), a21 = _mm512_setzero_ps(), a22 = _mm512_setzero_ps();
            __m512 a30 = _mm512_setzero_ps(), a31 = _mm512_setzero_ps(), a32 = _mm512_setzero_ps();
            const uint16_t *vp = v + 2 * column;
            const uint32_t *up = uBlock;
            for (long p = 0; p < pairs; p++) {
                const __m512bh v0 = (__m512bh)_mm512_loadu_si512(vp), v1 = (__m512bh)_mm512_loadu_si512(vp + 32);
                const __m512bh v2 = (__m512bh)_mm512_loadu_si512(vp + 64);
                const __m512bh u0 = (__m512bh)_mm512_set1_epi32((int)up[0]), u1 = (__m512bh)_mm512_set1_epi32((int)up[1]);
                const __m512bh u2 = (__m512bh)_mm512_set1_epi32((int)up[2]), u3 = (__m512bh)_mm512_set1_epi32((int)up[3]);
                a00 = _mm512_dpbf16_ps(a00, u0, v0); a01 = _mm512_dpbf16_ps(a01, u0, v1); a02 = _mm512_dpbf16_ps(a02, u0, v2);
                a10 = _mm512_dpbf16_ps(a10, u1, v0); a11 = _mm512_dpbf16_ps(a11, u1, v1); a12 = _mm512_dpbf16_ps(a12, u1, v2);
                a20 = _mm512_dpbf16_ps(a20, u2, v0); a21 = _mm512_dpbf16_ps(a21, u2, v1); a22 = _mm512_dpbf16_ps(a22, u2, v2);
                a30 = _mm512_dpbf16_ps(a30, u3, v0); a31 = _mm512_dpbf16_ps(a31, u3, v1); a32 = _mm512_dpbf16_ps(a32, u3, v2);
                vp += 2 * slots;
                up += 4;
            }
            float *o = mBlock + column;
            _mm512_storeu_ps(o, a00); _mm512_storeu_ps(o + 16, a01); _mm512_storeu_ps(o + 32, a02);
            o += mStride;
            _mm512_storeu_ps(o, a10); _mm512_storeu_ps(o + 16, a11); _mm512_storeu_ps(o + 32, a12);
            o += mStride;
            _mm512_storeu_ps(o, a20); _mm512_storeu_ps(o + 16, a21); _mm512_storeu_ps(o + 32, a22);
            o += mStride;
            _mm512_storeu_ps(o, a30); _mm512_storeu_ps(o + 16, a31); _mm512_storeu_ps(o + 32, a32);
        }
    }
}

#else
// Other architectures: never called (NeuralNet checks the CPU first); defined so the module links.
#include <stdlib.h>
void neuralnet_bf16_pack_filters(const float *u, long blocks, long inChannels, uint16_t *out) { abort(); }
void neuralnet_bf16_pack_inputs(const float *v, long inChannels, long slots, uint16_t *out) { abort(); }
void neuralnet_bf16_winograd_products(const uint16_t *u, const uint16_t *v, float *m, long mStride,
                                      long inChannels, long paddedOutChannels, long slots) { abort(); }
#endif
