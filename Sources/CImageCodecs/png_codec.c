// libpng behind setjmp: errors arrive through our callback, which png_longjmps back to the
// setjmp(png_jmpbuf(...)) at each entry point. Input is fed from memory; reading past its end is a
// png_error too, remembered so it can be reported as truncation.
#include <setjmp.h>
#include <stdlib.h>
#include <png.h>
#include <zlib.h>  // Z_RLE
#include "codec_private.h"

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t offset;
    int overran;
    char message[160];
} sic_png_io;

static void on_png_error(png_structp png, png_const_charp message) {
    sic_png_io *io = png_get_error_ptr(png);
    snprintf(io->message, sizeof io->message, "%s", message);
    png_longjmp(png, 1);
}

static void on_png_warning(png_structp png, png_const_charp message) { (void)png; (void)message; }

static void read_from_memory(png_structp png, png_bytep out, size_t length) {
    sic_png_io *io = png_get_io_ptr(png);
    if (length > io->size - io->offset) {
        io->overran = 1;
        png_error(png, "PNG data ends early");
    }
    memcpy(out, io->data + io->offset, length);
    io->offset += length;
}

static int status_from_io(const sic_png_io *io, sic_status *status) {
    if (io->overran) return sic_set(status, SIC_TRUNCATED, "%s", io->message);
    if (strstr(io->message, "memory")) return sic_set(status, SIC_OUT_OF_MEMORY, "%s", io->message);
    return sic_set(status, SIC_CORRUPT, "%s", io->message);
}

static int has_signature(const uint8_t *data, size_t size) {
    return size >= 8 && png_sig_cmp(data, 0, 8) == 0;
}

typedef struct {
    struct sic_decoder base;
    png_structp png;
    png_infop info;
    sic_png_io io;
    png_bytep *rows;
} sic_png_decoder;

void sic_png_abort(sic_decoder *decoder) {
    sic_png_decoder *d = (sic_png_decoder *)decoder;
    png_destroy_read_struct(&d->png, d->info ? &d->info : NULL, NULL);
    free(d->rows);
    free(d);
}

/// Creates the read structs and reads everything up to the first IDAT. NULL on failure.
static sic_png_decoder *open_png(const uint8_t *data, size_t size, sic_status *status) {
    if (!has_signature(data, size)) {
        sic_set(status, size < 8 ? SIC_TRUNCATED : SIC_UNSUPPORTED, "not a PNG signature");
        if (size >= 1 && size < 8 && png_sig_cmp(data, 0, size) != 0) status->code = SIC_UNSUPPORTED;
        return NULL;
    }
    sic_png_decoder *d = calloc(1, sizeof *d);
    if (!d) { sic_set(status, SIC_OUT_OF_MEMORY, "no memory for a PNG decoder"); return NULL; }
    d->base.kind = SIC_KIND_PNG;
    d->io.data = data;
    d->io.size = size;
    d->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &d->io, on_png_error, on_png_warning);
    if (d->png) d->info = png_create_info_struct(d->png);
    if (!d->png || !d->info) {
        sic_set(status, SIC_OUT_OF_MEMORY, "no memory for libpng");
        sic_png_abort(&d->base);
        return NULL;
    }
    if (setjmp(png_jmpbuf(d->png))) {
        status_from_io(&d->io, status);
        sic_png_abort(&d->base);
        return NULL;
    }
    png_set_read_fn(d->png, &d->io, read_from_memory);
    // Lift libpng's own 1,000,000-pixel side limit so our pixel-count check decides (tooLarge).
    png_set_user_limits(d->png, 0x7fffffff, 0x7fffffff);
    png_read_info(d->png, d->info);
    return d;
}

int sic_png_read_header(const uint8_t *data, size_t size, sic_header *header, sic_status *status) {
    sic_png_decoder *d = open_png(data, size, status);
    if (!d) return status->code;
    int color_type = png_get_color_type(d->png, d->info);
    int channels = png_get_channels(d->png, d->info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) channels = png_get_valid(d->png, d->info, PNG_INFO_tRNS) ? 4 : 3;
    header->width = (int)png_get_image_width(d->png, d->info);
    header->height = (int)png_get_image_height(d->png, d->info);
    header->channels = channels;
    header->bit_depth = png_get_bit_depth(d->png, d->info);
    header->progressive = png_get_interlace_type(d->png, d->info) != PNG_INTERLACE_NONE;
    header->cmyk = 0;
    sic_png_abort(&d->base);
    return sic_ok(status);
}

sic_decoder *sic_png_begin(const uint8_t *data, size_t size, sic_output output, uint64_t max_pixels,
                           int *out_width, int *out_height, sic_status *status) {
    sic_png_decoder *d = open_png(data, size, status);
    if (!d) return NULL;
    png_uint_32 width = png_get_image_width(d->png, d->info);
    png_uint_32 height = png_get_image_height(d->png, d->info);
    if (sic_check_limit(width, height, max_pixels, status) != SIC_OK) {
        *out_width = (int)width;  // the refused size, for the caller's message
        *out_height = (int)height;
        sic_png_abort(&d->base);
        return NULL;
    }
    if (setjmp(png_jmpbuf(d->png))) {
        status_from_io(&d->io, status);
        sic_png_abort(&d->base);
        return NULL;
    }
    int color_type = png_get_color_type(d->png, d->info);
    int has_trns = png_get_valid(d->png, d->info, PNG_INFO_tRNS) != 0;
    png_set_scale_16(d->png);
    png_set_expand(d->png);  // palette → RGB, grey < 8 bits → 8, tRNS → alpha
    if (output == SIC_OUTPUT_GREY) {
        png_set_strip_alpha(d->png);
        if (color_type & PNG_COLOR_MASK_COLOR)
            png_set_rgb_to_gray_fixed(d->png, PNG_ERROR_ACTION_NONE, -1, -1);
    } else {
        if (!(color_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(d->png);
        if (!(color_type & PNG_COLOR_MASK_ALPHA) && !has_trns) png_set_add_alpha(d->png, 0xff, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(d->png);
    png_read_update_info(d->png, d->info);
    size_t expected = (size_t)width * (output == SIC_OUTPUT_GREY ? 1 : 4);
    if (png_get_rowbytes(d->png, d->info) != expected) {
        sic_set(status, SIC_UNSUPPORTED, "unexpected PNG row layout");
        sic_png_abort(&d->base);
        return NULL;
    }
    *out_width = (int)width;
    *out_height = (int)height;
    sic_ok(status);
    return &d->base;
}

int sic_png_finish(sic_decoder *decoder, uint8_t *pixels, sic_status *status) {
    sic_png_decoder *d = (sic_png_decoder *)decoder;
    png_uint_32 height = png_get_image_height(d->png, d->info);
    size_t stride = png_get_rowbytes(d->png, d->info);
    d->rows = malloc(sizeof(png_bytep) * height);
    if (!d->rows) {
        sic_png_abort(decoder);
        return sic_set(status, SIC_OUT_OF_MEMORY, "no memory for PNG rows");
    }
    for (png_uint_32 y = 0; y < height; y++) d->rows[y] = pixels + (size_t)y * stride;
    if (setjmp(png_jmpbuf(d->png))) {
        int code = status_from_io(&d->io, status);
        sic_png_abort(decoder);
        return code;
    }
    png_read_image(d->png, d->rows);
    png_read_end(d->png, NULL);  // checks the trailing chunks' CRCs and that IEND is there
    sic_png_abort(decoder);
    return sic_ok(status);
}
