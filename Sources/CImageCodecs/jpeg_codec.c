// libjpeg-turbo behind setjmp: every entry point catches the library's error_exit longjmp.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>  // needs stdio.h (FILE) first
#include <jerror.h>
#include "codec_private.h"

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    int saw_eof;                     // libjpeg inserted a fake EOI: the data ended early
    char message[JMSG_LENGTH_MAX];
} sic_jpeg_error;

static void on_error_exit(j_common_ptr cinfo) {
    sic_jpeg_error *err = (sic_jpeg_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

// Warnings are counted, never printed; a premature end of data is remembered so a scan that
// libjpeg pads with grey is reported as truncated rather than as a successful decode.
static void on_emit_message(j_common_ptr cinfo, int level) {
    sic_jpeg_error *err = (sic_jpeg_error *)cinfo->err;
    if (level < 0) {
        cinfo->err->num_warnings++;
        if (cinfo->err->msg_code == JWRN_JPEG_EOF) err->saw_eof = 1;
    }
}

static void install_errors(sic_jpeg_error *err, j_common_ptr unused) {
    (void)unused;
    jpeg_std_error(&err->base);
    err->base.error_exit = on_error_exit;
    err->base.emit_message = on_emit_message;
    err->saw_eof = 0;
    err->message[0] = 0;
}

static int status_from_error(const sic_jpeg_error *err, sic_status *status) {
    if (err->saw_eof) return sic_set(status, SIC_TRUNCATED, "JPEG data ends early (%s)", err->message);
    switch (err->base.msg_code) {
    case JERR_NO_SOI: return sic_set(status, SIC_UNSUPPORTED, "%s", err->message);
    case JERR_OUT_OF_MEMORY: return sic_set(status, SIC_OUT_OF_MEMORY, "%s", err->message);
    default: return sic_set(status, SIC_CORRUPT, "%s", err->message);
    }
}

static int is_cmyk(J_COLOR_SPACE space) { return space == JCS_CMYK || space == JCS_YCCK; }

int sic_jpeg_read_header(const uint8_t *data, size_t size, sic_header *header, sic_status *status) {
    struct jpeg_decompress_struct cinfo;
    sic_jpeg_error err;
    install_errors(&err, NULL);
    cinfo.err = &err.base;
    if (setjmp(err.jump)) {
        int code = status_from_error(&err, status);
        jpeg_destroy_decompress(&cinfo);
        return code;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    header->width = (int)cinfo.image_width;
    header->height = (int)cinfo.image_height;
    header->channels = cinfo.num_components;
    header->bit_depth = cinfo.data_precision;
    header->progressive = cinfo.progressive_mode ? 1 : 0;
    header->cmyk = is_cmyk(cinfo.jpeg_color_space);
    int truncated = err.saw_eof;
    jpeg_destroy_decompress(&cinfo);
    if (truncated) return sic_set(status, SIC_TRUNCATED, "JPEG header ends early");
    return sic_ok(status);
}

typedef struct {
    struct sic_decoder base;
    struct jpeg_decompress_struct cinfo;
    sic_jpeg_error err;
    int dc_only;  // progressive at 1/8: only the first scans are needed (see consume_needed_scans)
} sic_jpeg_decoder;

void sic_jpeg_abort(sic_decoder *decoder) {
    sic_jpeg_decoder *d = (sic_jpeg_decoder *)decoder;
    jpeg_destroy_decompress(&d->cinfo);
    free(d);
}

sic_decoder *sic_jpeg_begin(const uint8_t *data, size_t size, int scale_denom, uint64_t max_pixels,
                            int *out_width, int *out_height, sic_status *status) {
    sic_jpeg_decoder *d = calloc(1, sizeof *d);
    if (!d) { sic_set(status, SIC_OUT_OF_MEMORY, "no memory for a JPEG decoder"); return NULL; }
    d->base.kind = SIC_KIND_JPEG;
    install_errors(&d->err, NULL);
    d->cinfo.err = &d->err.base;
    if (setjmp(d->err.jump)) {
        status_from_error(&d->err, status);
        sic_jpeg_abort(&d->base);
        return NULL;
    }
    jpeg_create_decompress(&d->cinfo);
    jpeg_mem_src(&d->cinfo, data, (unsigned long)size);
    jpeg_read_header(&d->cinfo, TRUE);
    if (sic_check_limit(d->cinfo.image_width, d->cinfo.image_height, max_pixels, status) != SIC_OK) {
        *out_width = (int)d->cinfo.image_width;  // the refused size, for the caller's message
        *out_height = (int)d->cinfo.image_height;
        sic_jpeg_abort(&d->base);
        return NULL;
    }
    d->cinfo.scale_num = 1;
    d->cinfo.scale_denom = (unsigned)(scale_denom == 2 || scale_denom == 4 || scale_denom == 8 ? scale_denom : 1);
    // CMYK/YCCK cannot be converted to RGB by libjpeg: take CMYK and convert per row in finish.
    d->cinfo.out_color_space = is_cmyk(d->cinfo.jpeg_color_space) ? JCS_CMYK : JCS_EXT_RGBA;
    if (d->cinfo.progressive_mode && d->cinfo.scale_denom == 8) {
        // At 1/8 a luma block becomes one pixel: only its DC coefficient counts (chroma: a few
        // more). A progressive file sends those first: buffered-image mode lets us stop there.
        d->dc_only = 1;
        d->cinfo.buffered_image = TRUE;
        d->cinfo.do_block_smoothing = FALSE;  // it would only invent AC terms a 1×1 IDCT ignores
    }
    jpeg_calc_output_dimensions(&d->cinfo);
    *out_width = (int)d->cinfo.output_width;
    *out_height = (int)d->cinfo.output_height;
    sic_ok(status);
    return &d->base;
}

// Adobe (Photoshop) CMYK JPEGs store inverted ink values; plain ones store ink directly.
static void cmyk_row_to_rgba(uint8_t *row, unsigned width, int inverted) {
    for (unsigned x = 0; x < width; x++) {
        uint8_t *p = row + 4 * x;
        unsigned c = p[0], m = p[1], y = p[2], k = p[3];
        if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
        p[0] = (uint8_t)((c * k + 127) / 255);
        p[1] = (uint8_t)((m * k + 127) / 255);
        p[2] = (uint8_t)((y * k + 127) / 255);
        p[3] = 255;
    }
}

// The last zigzag position a component's scaled IDCT reads. At 1/8 scale a luma block becomes
// one pixel (its DC term alone), while 4:2:0 chroma blocks become 2×2 (libjpeg scales chroma up
// in the IDCT instead of upsampling it), and libjpeg's 2×2 IDCT reads odd frequencies up to 7:
// treat every coefficient of such a component as needed. Larger IDCTs: no early stop (-1).
static int needed_last(const jpeg_component_info *component) {
    return component->DCT_scaled_size == 1 ? 0 : component->DCT_scaled_size == 2 ? DCTSIZE2 - 1 : -1;
}

/// Whether the scan whose header was just read carries a coefficient the output needs.
static int scan_is_needed(const struct jpeg_decompress_struct *cinfo) {
    for (int i = 0; i < cinfo->comps_in_scan; i++)
        if (cinfo->Ss <= needed_last(cinfo->cur_comp_info[i])) return 1;
    return 0;
}

/// Whether every needed coefficient of every component has arrived at least coarsely.
static int needed_coefficients_started(const struct jpeg_decompress_struct *cinfo) {
    for (int c = 0; c < cinfo->num_components; c++)
        for (int k = 0; k <= needed_last(&cinfo->comp_info[c]); k++)
            if (cinfo->coef_bits[c][k] < 0) return 0;
    return 1;
}

/// Whether a progressive decode at this scale can stop early (every component's IDCT is 1×1 or 2×2).
static int can_stop_early(const struct jpeg_decompress_struct *cinfo) {
    for (int c = 0; c < cinfo->num_components; c++)
        if (needed_last(&cinfo->comp_info[c]) < 0) return 0;
    return 1;
}

/// Reads scans until the next one carries nothing the small output needs and every needed
/// coefficient has arrived, then returns the number of the last scan read, to be output. Later
/// successive-approximation refinements of those coefficients are skipped: an error below one
/// quantisation step of each block mean, invisible at 1/8 size, for a fraction of the parsing.
static int consume_needed_scans(struct jpeg_decompress_struct *cinfo) {
    for (;;) {
        int result = jpeg_consume_input(cinfo);
        if (result == JPEG_REACHED_EOI || result == JPEG_SUSPENDED) return cinfo->input_scan_number;
        if (result != JPEG_REACHED_SOS || scan_is_needed(cinfo)) continue;
        // The scan just begun is not needed (its start does not touch the needed coefficients'
        // bits): if nothing is missing, output as of the previous scan and never read this one.
        if (needed_coefficients_started(cinfo)) return cinfo->input_scan_number - 1;
    }
}

int sic_jpeg_finish(sic_decoder *decoder, uint8_t *pixels, sic_status *status) {
    sic_jpeg_decoder *d = (sic_jpeg_decoder *)decoder;
    if (setjmp(d->err.jump)) {
        int code = status_from_error(&d->err, status);
        sic_jpeg_abort(decoder);
        return code;
    }
    if (d->dc_only && !can_stop_early(&d->cinfo)) {  // an unusual sampling: decode in one pass
        d->dc_only = 0;
        d->cinfo.buffered_image = FALSE;
        d->cinfo.do_block_smoothing = TRUE;
    }
    jpeg_start_decompress(&d->cinfo);
    if (d->dc_only) jpeg_start_output(&d->cinfo, consume_needed_scans(&d->cinfo));
    const size_t stride = (size_t)d->cinfo.output_width * 4;
    const int cmyk = d->cinfo.out_color_space == JCS_CMYK;
    const int inverted = d->cinfo.saw_Adobe_marker;
    while (d->cinfo.output_scanline < d->cinfo.output_height) {
        JSAMPROW rows[16];
        unsigned first = d->cinfo.output_scanline, count = d->cinfo.output_height - first;
        if (count > 16) count = 16;
        for (unsigned i = 0; i < count; i++) rows[i] = pixels + (size_t)(first + i) * stride;
        unsigned read = jpeg_read_scanlines(&d->cinfo, rows, count);
        if (cmyk)
            for (unsigned i = 0; i < read; i++) cmyk_row_to_rgba(rows[i], d->cinfo.output_width, inverted);
        if (read == 0) break;
    }
    if (d->dc_only) jpeg_finish_output(&d->cinfo);  // the remaining scans are skipped, not read
    else jpeg_finish_decompress(&d->cinfo);
    int truncated = d->err.saw_eof;
    sic_jpeg_abort(decoder);
    if (truncated) return sic_set(status, SIC_TRUNCATED, "JPEG data ends before the last scan");
    return sic_ok(status);
}

typedef struct {
    struct jpeg_compress_struct cinfo;
    sic_jpeg_error err;
    unsigned char *buffer;           // owned by jpeg_mem_dest until we take it
    unsigned long size;
} sic_jpeg_encoder;

int sic_jpeg_encode_rgba(const uint8_t *pixels, int width, int height, int quality, int progressive,
                         uint8_t **out, size_t *out_size, sic_status *status) {
    if (width <= 0 || height <= 0 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION)
        return sic_set(status, SIC_ENCODE_FAILED, "JPEG cannot hold a %d×%d image", width, height);
    sic_jpeg_encoder *e = calloc(1, sizeof *e);
    if (!e) return sic_set(status, SIC_OUT_OF_MEMORY, "no memory for a JPEG encoder");
    install_errors(&e->err, NULL);
    e->cinfo.err = &e->err.base;
    if (setjmp(e->err.jump)) {
        int code = sic_set(status, SIC_ENCODE_FAILED, "%s", e->err.message);
        jpeg_destroy_compress(&e->cinfo);
        free(e->buffer);
        free(e);
        return code;
    }
    jpeg_create_compress(&e->cinfo);
    jpeg_mem_dest(&e->cinfo, &e->buffer, &e->size);
    e->cinfo.image_width = (JDIMENSION)width;
    e->cinfo.image_height = (JDIMENSION)height;
    e->cinfo.input_components = 4;
    e->cinfo.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&e->cinfo);
    jpeg_set_quality(&e->cinfo, quality < 1 ? 1 : quality > 100 ? 100 : quality, TRUE);
    if (progressive) jpeg_simple_progression(&e->cinfo);
    jpeg_start_compress(&e->cinfo, TRUE);
    const size_t stride = (size_t)width * 4;
    while (e->cinfo.next_scanline < e->cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)e->cinfo.next_scanline * stride);
        jpeg_write_scanlines(&e->cinfo, &row, 1);
    }
    jpeg_finish_compress(&e->cinfo);
    jpeg_destroy_compress(&e->cinfo);
    *out = e->buffer;
    *out_size = e->size;
    free(e);
    return sic_ok(status);
}
