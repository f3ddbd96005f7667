#ifndef STICKERS_LAZY_WEBP_H
#define STICKERS_LAZY_WEBP_H

#include <stddef.h>
#include <stdint.h>

/// libwebp (libwebp.so.7), loaded at the first call (see lazy_webp.c). Every function returns
/// LW_OK or an error code, with a message in words in `message` (at least LW_MESSAGE_CAPACITY bytes).
enum {
    LW_OK = 0,
    LW_UNAVAILABLE = 1,  ///< libwebp cannot be loaded, or lacks a function or ABI this needs.
    LW_NOT_WEBP = 2,     ///< The data is not a WebP image libwebp can read.
    LW_FAILED = 3,       ///< Encoding or decoding failed (message says why).
    LW_MESSAGE_CAPACITY = 256,
};

/// The encoder settings this project uses, a subset of libwebp's WebPConfig.
typedef struct lw_settings {
    int lossless;       ///< 1: lossless (VP8L); 0: lossy (VP8 + lossless alpha).
    float quality;      ///< 0…100: lossy quality, or lossless effort.
    int method;         ///< 0 (fast) … 6 (slow, smaller).
    int exact;          ///< 1: keep the RGB under transparent pixels as given.
    int sharp_yuv;      ///< 1: sharper RGB→YUV conversion (lossy only; slower).
} lw_settings;

/// Loads libwebp if not yet loaded; LW_OK when it can be used.
int lw_load(char *message);

/// The libwebp version as 0xMMmmpp (1.2.4 → 0x010204), or 0 when not loaded.
int lw_encoder_version(void);

/// Width and height from a WebP header.
int lw_get_info(const uint8_t *data, size_t size, int *width, int *height, char *message);

/// Decodes to straight-alpha RGBA into `pixels` (width × height × 4 bytes, sizes from lw_get_info).
int lw_decode_rgba(const uint8_t *data, size_t size, uint8_t *pixels, size_t capacity, int width, int height,
                   char *message);

/// Encodes straight-alpha RGBA. On LW_OK `*output` is a malloc'd buffer of `*output_size` bytes
/// (release it with free()).
int lw_encode_rgba(const uint8_t *rgba, int width, int height, int stride, const lw_settings *settings,
                   uint8_t **output, size_t *output_size, char *message);

/// libwebp's one-call lossless encoder (WebPEncodeLosslessRGBA: effort 70, method 4), as a
/// baseline for benchmarks. Release `*output` with free().
int lw_encode_lossless_simple(const uint8_t *rgba, int width, int height, int stride,
                              uint8_t **output, size_t *output_size, char *message);

#endif
