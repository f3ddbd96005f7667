#ifndef STICKERS_CODEC_PRIVATE_H
#define STICKERS_CODEC_PRIVATE_H
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "image_codecs.h"

static inline int sic_set(sic_status *status, sic_code code, const char *format, ...) {
    if (status) {
        status->code = code;
        va_list args;
        va_start(args, format);
        vsnprintf(status->message, sizeof status->message, format, args);
        va_end(args);
    }
    return (int)code;
}

static inline int sic_ok(sic_status *status) {
    if (status) { status->code = SIC_OK; status->message[0] = 0; }
    return SIC_OK;
}

/// A zero dimension or one above the limit is refused before the library allocates pixel rows.
static inline int sic_check_limit(uint64_t width, uint64_t height, uint64_t max_pixels, sic_status *status) {
    if (width == 0 || height == 0) return sic_set(status, SIC_CORRUPT, "image has zero width or height");
    if (width * height > max_pixels)
        return sic_set(status, SIC_TOO_LARGE, "%llu×%llu exceeds the limit of %llu pixels",
                       (unsigned long long)width, (unsigned long long)height, (unsigned long long)max_pixels);
    return SIC_OK;
}

// Each codec's decoder state; the public sic_decoder only routes sic_decoder_abort.
typedef enum { SIC_KIND_JPEG = 1, SIC_KIND_PNG = 2 } sic_kind;
struct sic_decoder { sic_kind kind; };

void sic_jpeg_abort(sic_decoder *decoder);
void sic_png_abort(sic_decoder *decoder);

#endif
