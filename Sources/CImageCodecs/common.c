#include <stdlib.h>
#include "codec_private.h"

void sic_decoder_abort(sic_decoder *decoder) {
    if (!decoder) return;
    switch (decoder->kind) {
    case SIC_KIND_JPEG: sic_jpeg_abort(decoder); break;
    case SIC_KIND_PNG: sic_png_abort(decoder); break;
    }
}

void sic_free(void *pointer) { free(pointer); }
