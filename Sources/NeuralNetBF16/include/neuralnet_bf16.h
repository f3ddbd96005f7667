#ifndef NEURALNET_BF16_H
#define NEURALNET_BF16_H

// The Winograd convolution's 36 matrix products in bfloat16 with float accumulation (AVX-512
// BF16's `vdpbf16ps`: two multiply-adds per 32-bit lane, twice AVX-512F's per instruction). Call
// only when stickers_cpu_has_avx512_bf16() says the CPU has it. Layouts: NeuralNet's
// WinogradConvolution.swift; bfloat16 values are the top 16 bits of a float, as uint16_t.

#include <stdint.h>

/// Rounds (to nearest, ties to even) the float filters U, packed as `blocks` blocks of
/// [inChannels][4] (U's [ξ][K/4][C][4] is 36·K/4 such blocks), into bfloat16 pairs of input
/// channels, [blocks][⌈C/2⌉][4][2]: lane l of pair p is (c = 2p, c = 2p + 1) of output channel l;
/// an odd last input channel is paired with 0.
void neuralnet_bf16_pack_filters(const float *u, long blocks, long inChannels, uint16_t *out);

/// Rounds one ξ's float input V ([inChannels][slots], slots a multiple of 16) into bfloat16 pairs
/// of input channels, [⌈C/2⌉][slots][2]; an odd last channel is paired with 0.
void neuralnet_bf16_pack_inputs(const float *v, long inChannels, long slots, uint16_t *out);

/// For one ξ: m[k·mStride + s] = Σ_c u[k][c] · v[c][s] for k < paddedOutChannels (a multiple of 4)
/// and s < slots (a multiple of 48), u and v packed as above, each pair's two products and the
/// running sum added in float.
void neuralnet_bf16_winograd_products(const uint16_t *u, const uint16_t *v, float *m, long mStride,
                                      long inChannels, long paddedOutChannels, long slots);

#endif
