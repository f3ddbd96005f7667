#ifndef STICKERS_IMAGE_CODECS_H
#define STICKERS_IMAGE_CODECS_H
#include <stddef.h>
#include <stdint.h>

// Thin, crash-proof wrappers around libjpeg-turbo and libpng.
//
// Both libraries report fatal errors by longjmp (or exit/abort by default), which Swift cannot
// survive. Every function here installs its own setjmp before calling into the library, so a
// malformed file comes back as a status code plus a message, never as a dead process.
//
// Decoding is split in two so the caller can allocate the pixel buffer itself (Swift arrays,
// no copy): `*_begin` reads the header, checks the pixel limit *before* any pixel memory exists,
// and reports the output size; `*_finish` decodes into the caller's buffer and frees the decoder.
// `sic_decoder_abort` frees a decoder that will not be finished.

typedef enum {
    SIC_OK = 0,
    SIC_UNSUPPORTED = 1,   // not this format, or a variant the library cannot read
    SIC_TRUNCATED = 2,     // data ends before the image does
    SIC_CORRUPT = 3,       // malformed data (message says why)
    SIC_TOO_LARGE = 4,     // header dimensions exceed the caller's pixel limit
    SIC_OUT_OF_MEMORY = 5,
    SIC_ENCODE_FAILED = 6,
} sic_code;

typedef struct {
    sic_code code;
    char message[200];
} sic_status;

typedef struct {
    int width;           // full-size dimensions from the header
    int height;
    int channels;        // source channels: 1 grey, 2 grey+alpha, 3 colour, 4 colour+alpha / CMYK
    int bit_depth;       // 8 for JPEG; 1, 2, 4, 8 or 16 for PNG
    int progressive;     // JPEG progressive / PNG interlaced
    int cmyk;            // JPEG in CMYK or YCCK
} sic_header;

typedef struct sic_decoder sic_decoder;

typedef enum {
    SIC_OUTPUT_RGBA = 0,  // 4 bytes per pixel, straight alpha (255 when the source has none)
    SIC_OUTPUT_GREY = 1,  // 1 byte per pixel (PNG only): luminance, alpha dropped
} sic_output;

// --- JPEG -----------------------------------------------------------------------------------

int sic_jpeg_read_header(const uint8_t *data, size_t size, sic_header *header, sic_status *status);

/// Reads the header and prepares an RGBA decode at 1/`scale_denom` size (1, 2, 4 or 8). A
/// progressive file at 1/8 is read only as far as its DC scans (the rest is never parsed).
/// On SIC_TOO_LARGE the out dimensions hold the refused full size.
/// Returns NULL (status set) on error or when width*height > max_pixels.
sic_decoder *sic_jpeg_begin(const uint8_t *data, size_t size, int scale_denom, uint64_t max_pixels,
                            int *out_width, int *out_height, sic_status *status);

/// Decodes into `pixels` (out_width*out_height*4 bytes) and frees the decoder. A scan that ends
/// early (libjpeg only warns and pads) is reported as SIC_TRUNCATED; the buffer is then filled.
/// Other corrupt-data warnings (a damaged restart interval, extraneous bytes) are tolerated, as
/// browsers do: the picture is mostly intact and SIC_OK is returned.
int sic_jpeg_finish(sic_decoder *decoder, uint8_t *pixels, sic_status *status);

/// Encodes RGBA (alpha ignored) as a YCbCr 4:2:0 JPEG, baseline or (libjpeg's standard script)
/// progressive. On success `*out` is malloc'd; free it with sic_free.
int sic_jpeg_encode_rgba(const uint8_t *pixels, int width, int height, int quality, int progressive,
                         uint8_t **out, size_t *out_size, sic_status *status);

// --- PNG ------------------------------------------------------------------------------------

int sic_png_read_header(const uint8_t *data, size_t size, sic_header *header, sic_status *status);

/// Reads the header and prepares a decode of any colour type, bit depth and interlacing to
/// 8-bit RGBA or grey. Returns NULL (status set) on error or when width*height > max_pixels.
sic_decoder *sic_png_begin(const uint8_t *data, size_t size, sic_output output, uint64_t max_pixels,
                           int *out_width, int *out_height, sic_status *status);

/// Decodes into `pixels` (width*height*4 or *1 bytes) and frees the decoder.
int sic_png_finish(sic_decoder *decoder, uint8_t *pixels, sic_status *status);

/// PNG writing: an image is one or more bands of rows, each encoded apart from the others (so
/// bands run on several cores), then assembled into the file.
///
/// One band of a PNG: rows
/// [first_row, end_row) Paeth-filtered (the row above first_row is read from `pixels`) and deflated
/// into a raw deflate stream ending on a byte boundary, or finished when `last` is 1. Reports the
/// Adler-32 and length of the band's filtered bytes for sic_png_assemble. `*out` is malloc'd.
/// `zlib_baseline` 1 deflates with zlib's run-length strategy instead of our encoder (benchmarks).
int sic_png_deflate_rows(const uint8_t *pixels, int width, int channels, int first_row, int end_row, int last,
                         int zlib_baseline, uint8_t **out, size_t *out_size, uint32_t *adler, size_t *filtered_length,
                         sic_status *status);

/// The PNG file of `count` bands from sic_png_deflate_rows, in row order. `*out` is malloc'd.
int sic_png_assemble(int width, int height, int channels, const uint8_t *const *bands, const size_t *band_sizes,
                     const uint32_t *adlers, const size_t *filtered_lengths, int count,
                     uint8_t **out, size_t *out_size, sic_status *status);

// --- common ---------------------------------------------------------------------------------

void sic_decoder_abort(sic_decoder *decoder);
void sic_free(void *pointer);

#endif
