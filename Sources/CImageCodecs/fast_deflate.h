#ifndef STICKERS_FAST_DEFLATE_H
#define STICKERS_FAST_DEFLATE_H
#include <stddef.h>
#include <stdint.h>

/// A raw deflate stream being written (see fast_deflate.c). Bytes are buffered and encoded a
/// block at a time; `out[0..<size]` is the stream so far.
typedef struct {
    uint8_t *out;
    size_t size, capacity;
    uint64_t bits;
    int bit_count;
    size_t bpp;              /// bytes per pixel: runs are also looked for one pixel back
    uint8_t *chunk;          /// bytes waiting to be encoded
    size_t chunk_size, chunk_capacity;
    uint32_t *tokens;
    int failed;              /// out of memory
} sic_deflater;

/// 0 when out of memory (nothing to free then).
int sic_deflater_init(sic_deflater *d, size_t bpp, size_t expected_input);
void sic_deflater_free(sic_deflater *d);
/// Appends bytes to the stream; 0 when out of memory.
int sic_deflater_add(sic_deflater *d, const uint8_t *bytes, size_t count);
/// Encodes what is buffered and ends the stream (`last`: a final block) or leaves it open on a
/// byte boundary (an empty stored block, as zlib's Z_SYNC_FLUSH), so another stream can follow.
int sic_deflater_finish(sic_deflater *d, int last);
#endif
