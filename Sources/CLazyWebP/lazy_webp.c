// libwebp, bound at run time: the runtime library (Debian's libwebp7, libwebp.so.7) is on every
// machine of this kind, its development files (headers, the libwebp.so link) are not, and the
// README's `swift build` / `swift run` must work on a fresh machine without an install step.
// So, as CLazyCurl does for libcurl, the library is opened with dlopen at its first use and
// each function found with dlsym; a machine without it gets LW_UNAVAILABLE and a message (the
// CLI exits 69 for what needs it), not a binary that cannot start.
//
// Why the advanced API (WebPConfig, WebPPicture) rather than only the struct-free one-call
// functions: speed. WebPEncodeLosslessRGBA always runs lossless effort 70 at method 4, ~300 ms
// for a 512×512 photo sticker on one core, six times this project's 50 ms bar for fitting one;
// the method (0…6) and effort are only settable in WebPConfig (as are `exact` and sharp YUV).
// The two structs are declared here by hand with libwebp's layout for ABI 2 (the soname-7
// libraries, 0.5 … 1.x): libwebp keeps that layout (fields are only ever added in place of its
// `pad` words, within the same size), and its Init functions check the ABI's major version, so a
// mismatch is refused, not misread. Our WebPConfig declares a larger tail than libwebp has so a
// newer library's extra fields (qmin, qmax) land in our memory.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lazy_webp.h"

/// libwebp 1.2.4's WEBP_ENCODER_ABI_VERSION; libwebp accepts any 0x02xx.
#define ENCODER_ABI 0x020f

/// libwebp's WebPConfig (ABI 2): the fields in their order, all `int` except two floats.
typedef struct config {
    int lossless; float quality; int method; int image_hint;
    int target_size; float target_psnr; int segments; int sns_strength;
    int filter_strength; int filter_sharpness; int filter_type; int autofilter;
    int alpha_compression; int alpha_filtering; int alpha_quality; int pass;
    int show_compressed; int preprocessing; int partitions; int partition_limit;
    int emulate_jpeg_size; int thread_level; int low_memory; int near_lossless;
    int exact; int use_delta_palette; int use_sharp_yuv;
    uint32_t reserved[16];  // libwebp's own tail is 2 words (pad, or qmin/qmax in newer versions)
} config;

struct picture;
typedef int (*writer_function)(const uint8_t *data, size_t size, const struct picture *picture);

/// libwebp's WebPPicture (ABI 2), 256 bytes on LP64: only the named fields are used here.
typedef struct picture {
    int use_argb; int colorspace; int width; int height;
    uint8_t *y, *u, *v; int y_stride, uv_stride;
    uint8_t *a; int a_stride; uint32_t pad1[2];
    uint32_t *argb; int argb_stride; uint32_t pad2[3];
    writer_function writer; void *custom_ptr;
    int extra_info_type; uint8_t *extra_info;
    void *stats; int error_code; void *progress_hook; void *user_data;
    uint32_t pad3[3]; uint8_t *pad4, *pad5; uint32_t pad6[8];
    void *memory_, *memory_argb_; void *pad7[2];
} picture;

#if defined(__LP64__)
_Static_assert(sizeof(picture) == 256, "WebPPicture is 256 bytes on LP64");
_Static_assert(__builtin_offsetof(picture, writer) == 96, "WebPPicture.writer at 96");
_Static_assert(__builtin_offsetof(picture, error_code) == 136, "WebPPicture.error_code at 136");
#endif
_Static_assert(__builtin_offsetof(config, use_sharp_yuv) == 26 * 4, "WebPConfig.use_sharp_yuv is its 27th word");

static struct {
    int (*get_encoder_version)(void);
    int (*get_info)(const uint8_t *, size_t, int *, int *);
    uint8_t *(*decode_rgba_into)(const uint8_t *, size_t, uint8_t *, size_t, int);
    size_t (*encode_lossless_rgba)(const uint8_t *, int, int, int, uint8_t **);
    void (*free)(void *);
    int (*config_init)(config *, int, float, int);
    int (*validate_config)(const config *);
    int (*picture_init)(picture *, int);
    int (*picture_import_rgba)(picture *, const uint8_t *, int);
    int (*encode)(const config *, picture *);
    void (*picture_free)(picture *);
} api;

static int loaded;
static char load_error[LW_MESSAGE_CAPACITY];
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load_library(void) {
    // STICKERS_LIBWEBP names another library file: for tests of a machine without libwebp.
    const char *name = getenv("STICKERS_LIBWEBP");
    if (!name || !*name) name = "libwebp.so.7";
    void *library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(load_error, sizeof load_error,
                 "WebP needs libwebp (%s); install it (Debian: apt-get install libwebp7)", reason ? reason : "not found");
        return;
    }
#define BIND(field, symbol) \
    if (!(*(void **)&api.field = dlsym(library, symbol))) { \
        snprintf(load_error, sizeof load_error, "%s has no %s: libwebp 0.5 or newer is needed", name, symbol); \
        return; \
    }
    BIND(get_encoder_version, "WebPGetEncoderVersion")
    BIND(get_info, "WebPGetInfo")
    BIND(decode_rgba_into, "WebPDecodeRGBAInto")
    BIND(encode_lossless_rgba, "WebPEncodeLosslessRGBA")
    BIND(free, "WebPFree")
    BIND(config_init, "WebPConfigInitInternal")
    BIND(validate_config, "WebPValidateConfig")
    BIND(picture_init, "WebPPictureInitInternal")
    BIND(picture_import_rgba, "WebPPictureImportRGBA")
    BIND(encode, "WebPEncode")
    BIND(picture_free, "WebPPictureFree")
#undef BIND
    loaded = 1;
}

int lw_load(char *message) {
    pthread_once(&load_once, load_library);
    if (loaded) return LW_OK;
    snprintf(message, LW_MESSAGE_CAPACITY, "%s", load_error);
    return LW_UNAVAILABLE;
}

int lw_encoder_version(void) {
    char ignored[LW_MESSAGE_CAPACITY];
    return lw_load(ignored) == LW_OK ? api.get_encoder_version() : 0;
}

int lw_get_info(const uint8_t *data, size_t size, int *width, int *height, char *message) {
    int status = lw_load(message);
    if (status != LW_OK) return status;
    if (!api.get_info(data, size, width, height)) {
        snprintf(message, LW_MESSAGE_CAPACITY, "not a WebP image libwebp can read");
        return LW_NOT_WEBP;
    }
    return LW_OK;
}

int lw_decode_rgba(const uint8_t *data, size_t size, uint8_t *pixels, size_t capacity, int width, int height,
                   char *message) {
    int status = lw_load(message);
    if (status != LW_OK) return status;
    if (width <= 0 || height <= 0 || capacity < (size_t)width * (size_t)height * 4) {
        snprintf(message, LW_MESSAGE_CAPACITY, "output buffer too small");
        return LW_FAILED;
    }
    if (!api.decode_rgba_into(data, size, pixels, capacity, width * 4)) {
        snprintf(message, LW_MESSAGE_CAPACITY, "libwebp could not decode the image (corrupt or truncated)");
        return LW_FAILED;
    }
    return LW_OK;
}

/// The output buffer our writer appends to (libwebp calls it with each finished piece).
typedef struct output_buffer { uint8_t *bytes; size_t size, capacity; int failed; } output_buffer;

static int append(const uint8_t *data, size_t size, const picture *picture) {
    output_buffer *buffer = picture->custom_ptr;
    if (buffer->size + size > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 64 * 1024;
        while (capacity < buffer->size + size) capacity *= 2;
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (!grown) { buffer->failed = 1; return 0; }
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->size, data, size);
    buffer->size += size;
    return 1;
}

static const char *encoding_error(int code) {
    switch (code) {
    case 1: case 2: return "out of memory";
    case 4: return "invalid settings";
    case 5: return "invalid picture size (at most 16383 pixels a side)";
    case 6: case 7: return "the image is too large for WebP";
    case 8: return "could not write the output";
    case 9: return "the file would be larger than 4 GB";
    default: return "unknown error";
    }
}

int lw_encode_rgba(const uint8_t *rgba, int width, int height, int stride, const lw_settings *settings,
                   uint8_t **output, size_t *output_size, char *message) {
    int status = lw_load(message);
    if (status != LW_OK) return status;
    config config;
    picture picture;
    memset(&config, 0, sizeof config);
    if (!api.config_init(&config, 0, settings->quality, ENCODER_ABI) || !api.picture_init(&picture, ENCODER_ABI)) {
        snprintf(message, LW_MESSAGE_CAPACITY, "this libwebp does not speak encoder ABI 2 (version %06x)",
                 api.get_encoder_version());
        return LW_UNAVAILABLE;
    }
    config.lossless = settings->lossless;
    config.method = settings->method;
    config.exact = settings->exact;
    config.use_sharp_yuv = settings->sharp_yuv;
    config.alpha_quality = 100;  // the edge's alpha exactly as drawn, whatever the colour quality
    if (!api.validate_config(&config)) {
        snprintf(message, LW_MESSAGE_CAPACITY, "invalid WebP settings (quality %g, method %d)",
                 (double)settings->quality, settings->method);
        return LW_FAILED;
    }
    picture.use_argb = 1;  // libwebp converts to YUV itself for lossy, weighting chroma by alpha
    picture.width = width;
    picture.height = height;
    output_buffer buffer = {0};
    picture.writer = append;
    picture.custom_ptr = &buffer;
    if (!api.picture_import_rgba(&picture, rgba, stride)) {
        api.picture_free(&picture);
        snprintf(message, LW_MESSAGE_CAPACITY, "out of memory importing a %d×%d picture", width, height);
        return LW_FAILED;
    }
    int ok = api.encode(&config, &picture);
    int code = picture.error_code;
    api.picture_free(&picture);
    if (!ok || buffer.failed) {
        free(buffer.bytes);
        snprintf(message, LW_MESSAGE_CAPACITY, "WebP encoding failed: %s", buffer.failed ? "out of memory" : encoding_error(code));
        return LW_FAILED;
    }
    *output = buffer.bytes;
    *output_size = buffer.size;
    return LW_OK;
}

int lw_encode_lossless_simple(const uint8_t *rgba, int width, int height, int stride,
                              uint8_t **output, size_t *output_size, char *message) {
    int status = lw_load(message);
    if (status != LW_OK) return status;
    uint8_t *encoded = NULL;
    size_t size = api.encode_lossless_rgba(rgba, width, height, stride, &encoded);
    if (!size || !encoded) {
        snprintf(message, LW_MESSAGE_CAPACITY, "WebP encoding failed");
        return LW_FAILED;
    }
    // Copied into a malloc'd buffer so every output of this file is released with free().
    *output = malloc(size);
    if (*output) memcpy(*output, encoded, size);
    api.free(encoded);
    if (!*output) { snprintf(message, LW_MESSAGE_CAPACITY, "out of memory"); return LW_FAILED; }
    *output_size = size;
    return LW_OK;
}
