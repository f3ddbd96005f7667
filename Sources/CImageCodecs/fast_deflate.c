// A raw deflate encoder (RFC 1951) for PNG's filtered rows, about three times faster than zlib's
// fastest strategy on the same bytes at the same size.
//
// What it keeps of deflate: runs only, as zlib's Z_RLE strategy does (after PNG filtering a photo
// has few long-range repeats; flat areas and transparent margins become runs of equal bytes or
// pixels), so there is no hash chain, only a look one byte and one pixel back. Each block of up to
// 128 KiB is tokenised once, its symbol counts give it its own Huffman codes (length-limited, as
// zlib builds them), and it is written as a dynamic block or, when that would be larger, as stored
// blocks. What zlib does beyond that buys little here: on a 16 MB sticker Z_RLE and level 1 came
// out within 20% of each other in size at the same ~115 MB/s.
#include <stdlib.h>
#include <string.h>
#include "cpu_dispatch.h"
#if SIC_X86_64_V3
#include <immintrin.h>
#endif
#include "fast_deflate.h"

// Word loads and the bit writer's word stores assume deflate's byte order is the CPU's.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fast_deflate.c assumes a little-endian CPU"
#endif

enum { BLOCK_BYTES = 128 * 1024, MAX_MATCH = 258, LITERALS = 286, DISTANCES = 30, CODE_LENGTHS = 19 };

static const uint16_t length_base[29] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                         35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                         3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t distance_base[30] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
                                           257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
                                           8193, 12289, 16385, 24577};
static const uint8_t distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
                                           7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
static const uint8_t code_length_order[CODE_LENGTHS] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};

// A token is a literal byte (< 256) or a match: MATCH | length | distance << 9.
#define MATCH 0x80000000u

static inline uint64_t load64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/// Index into length_base of a match length 3…258: lengths 3…10 one code each, then four codes
/// per power of two of (length − 3), told apart by its next two bits.
static inline int length_code(int length) {
    if (length == MAX_MATCH) return 28;
    int l = length - 3;
    if (l < 8) return l;
    int top = 31 - __builtin_clz((unsigned)l);
    return 4 * (top - 1) + ((l >> (top - 2)) & 3);
}

static inline int distance_code(int distance) {
    if (distance <= 4) return distance - 1;  // the only distances tokenize makes (1 byte or 1 pixel back)
    int i = 29;
    while (distance_base[i] > distance) i--;
    return i;
}

// ---------------------------------------------------------------- bits out

static int reserve(sic_deflater *d, size_t more) {
    if (d->size + more <= d->capacity) return 1;
    size_t capacity = d->capacity * 2 > d->size + more ? d->capacity * 2 : d->size + more;
    uint8_t *grown = realloc(d->out, capacity);
    if (!grown) { d->failed = 1; return 0; }
    d->out = grown;
    d->capacity = capacity;
    return 1;
}

// The caller reserves room first (at most 4 bytes per call are written).
static inline void put_bits(sic_deflater *d, uint32_t value, int count) {
    d->bits |= (uint64_t)value << d->bit_count;
    d->bit_count += count;
    if (d->bit_count >= 32) {
        uint32_t word = (uint32_t)d->bits;
        memcpy(d->out + d->size, &word, 4);  // little-endian, as deflate's bit order wants
        d->size += 4;
        d->bits >>= 32;
        d->bit_count -= 32;
    }
}

static void align_to_byte(sic_deflater *d) {
    while (d->bit_count > 0) {
        d->out[d->size++] = (uint8_t)d->bits;
        d->bits >>= 8;
        d->bit_count -= 8;
    }
    d->bits = 0;
    d->bit_count = 0;
}

// ---------------------------------------------------------------- Huffman codes

typedef struct { uint32_t frequency; uint16_t symbol; } weighted;

static int by_frequency(const void *a, const void *b) {
    const weighted *x = a, *y = b;
    if (x->frequency != y->frequency) return x->frequency < y->frequency ? -1 : 1;
    return (int)x->symbol - (int)y->symbol;
}

/// Code lengths ≤ max_bits for the symbols with a nonzero frequency (0 for the others): Huffman's
/// lengths, then, if some exceed max_bits, the overflow folded back as zlib and miniz do.
static void huffman_lengths(const uint32_t *frequency, int n, int max_bits, uint8_t *lengths) {
    weighted leaves[LITERALS];
    int m = 0;
    for (int i = 0; i < n; i++) {
        lengths[i] = 0;
        if (frequency[i]) leaves[m++] = (weighted){frequency[i], (uint16_t)i};
    }
    if (m == 0) return;
    if (m == 1) { lengths[leaves[0].symbol] = 1; return; }
    qsort(leaves, (size_t)m, sizeof leaves[0], by_frequency);
    // Leaves 0..<m (sorted), internal nodes m..<2m-1 made in non-decreasing weight: two queues.
    uint64_t weight[2 * LITERALS];
    int parent[2 * LITERALS];
    for (int i = 0; i < m; i++) weight[i] = leaves[i].frequency;
    int leaf = 0, inner = m, next = m;
    for (int k = 0; k < m - 1; k++) {
        int pair[2];
        for (int j = 0; j < 2; j++)
            pair[j] = (leaf < m && (inner >= next || weight[leaf] <= weight[inner])) ? leaf++ : inner++;
        weight[next] = weight[pair[0]] + weight[pair[1]];
        parent[pair[0]] = parent[pair[1]] = next;
        next++;
    }
    int depth[2 * LITERALS];
    int count[2 * LITERALS] = {0};
    depth[2 * m - 2] = 0;
    for (int i = 2 * m - 3; i >= 0; i--) depth[i] = depth[parent[i]] + 1;
    for (int i = 0; i < m; i++) count[depth[i] > max_bits ? max_bits : depth[i]]++;
    // Kraft sum in units of 2^-max_bits: over-full after clamping; each step removes one unit.
    uint32_t total = 0;
    for (int i = max_bits; i > 0; i--) total += (uint32_t)count[i] << (max_bits - i);
    while (total > (1u << max_bits)) {
        count[max_bits]--;
        for (int i = max_bits - 1; i > 0; i--) {
            if (count[i]) { count[i]--; count[i + 1] += 2; break; }
        }
        total--;
    }
    // The least frequent symbols take the longest codes.
    int j = 0;
    for (int length = max_bits; length >= 1; length--)
        for (int c = count[length]; c > 0; c--) lengths[leaves[j++].symbol] = (uint8_t)length;
}

/// Canonical codes for `lengths`, bit-reversed for deflate's least-significant-bit-first order.
static void canonical_codes(const uint8_t *lengths, int n, uint16_t *codes) {
    int count[16] = {0}, next[16] = {0};
    for (int i = 0; i < n; i++) count[lengths[i]]++;
    count[0] = 0;
    int code = 0;
    for (int bits = 1; bits < 16; bits++) {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    for (int i = 0; i < n; i++) {
        int length = lengths[i];
        if (!length) { codes[i] = 0; continue; }
        int c = next[length]++, reversed = 0;
        for (int b = 0; b < length; b++) { reversed = (reversed << 1) | (c & 1); c >>= 1; }
        codes[i] = (uint16_t)reversed;
    }
}

/// A code with a single used symbol (or none) is made complete with a second one-bit code.
static void complete(uint8_t *lengths, int n) {
    int used = 0, first = -1;
    for (int i = 0; i < n; i++) if (lengths[i]) { used++; first = i; }
    if (used >= 2) return;
    if (used == 0) { lengths[0] = 1; lengths[1] = 1; return; }
    lengths[first] = 1;
    lengths[first == 0 ? 1 : 0] = 1;
}

// ---------------------------------------------------------------- blocks

static size_t match_length(const uint8_t *a, const uint8_t *b, size_t limit) {
    size_t n = 0;
    while (n + 8 <= limit) {
        uint64_t x = load64(a + n) ^ load64(b + n);
        if (x) return n + (size_t)(__builtin_ctzll(x) >> 3);
        n += 8;
    }
    while (n < limit && a[n] == b[n]) n++;
    return n;
}

#if SIC_X86_64_V3
/// Literal stretches from `i`, 30 bytes at a time, with AVX2: a match starts at i + j exactly when
/// bytes i+j … i+j+2 equal the bytes one back (or four back, bpp 4), i.e. when three consecutive
/// byte comparisons hold. Where none can start, the bytes are literals, as in `tokenize_with`.
/// Returns where the literals end (a possible match, or fewer than 32 bytes left).
SIC_TARGET_X86_64_V3 static size_t literal_stretches(const uint8_t *p, size_t n, size_t bpp, size_t i, uint32_t *tokens,
                                                     size_t *t, uint32_t *literal_frequency) {
    while (i >= 4 && i + 32 <= n) {
        __m256i here = _mm256_loadu_si256((const __m256i *)(p + i));
        uint32_t one = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(here, _mm256_loadu_si256((const __m256i *)(p + i - 1))));
        uint32_t starts = one & (one >> 1) & (one >> 2);
        if (bpp == 4) {
            uint32_t four = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(here, _mm256_loadu_si256((const __m256i *)(p + i - 4))));
            starts |= four & (four >> 1) & (four >> 2);
        }
        // Bits 30 and 31 are zero: their missing comparisons shift in as zeros.
        size_t literals = starts ? (size_t)__builtin_ctz(starts) : 30;
        for (size_t k = 0; k < literals; k++) {
            uint8_t byte = p[i + k];
            tokens[*t + k] = byte;
            literal_frequency[byte]++;
        }
        *t += literals;
        i += literals;
        if (starts) break;
    }
    return i;
}
#endif

/// Tokens of `p[0..<n]`: runs one byte back, or one RGBA pixel back (bpp 4), of 3…258 bytes, else
/// literals. `wide`: skip literal stretches with AVX2 (the same tokens).
SIC_ALWAYS_INLINE static inline size_t tokenize_with(const uint8_t *p, size_t n, size_t bpp, uint32_t *tokens,
                                                     uint32_t *literal_frequency, uint32_t *distance_frequency, int wide) {
    (void)wide;
    size_t i = 0, t = 0;
    while (i < n) {
#if SIC_X86_64_V3
        if (wide) {
            i = literal_stretches(p, n, bpp, i, tokens, &t, literal_frequency);
            if (i >= n) break;
        }
#endif
        size_t best = 0, distance = 0;
        if (i >= 4 && i + 4 <= n) {
            // Bytes i-4 … i+3 in one load: does i…i+2 repeat the bytes one back, or four back?
            uint64_t w = load64(p + i - 4);
            uint64_t here = w >> 32;
            size_t limit = (n - i < MAX_MATCH ? n - i : MAX_MATCH) - 3;
            if (((here ^ (w >> 24)) & 0xFFFFFFu) == 0) {
                best = 3 + match_length(p + i + 3, p + i + 2, limit);
                distance = 1;
            }
            if (bpp == 4 && best < MAX_MATCH && ((here ^ w) & 0xFFFFFFu) == 0) {
                size_t length = 3 + match_length(p + i + 3, p + i - 1, limit);
                if (length > best) { best = length; distance = 4; }
            }
        }
        if (best >= 3) {
            tokens[t++] = MATCH | (uint32_t)best | (uint32_t)distance << 9;
            literal_frequency[257 + length_code((int)best)]++;
            distance_frequency[distance_code((int)distance)]++;
            i += best;
        } else {
            tokens[t++] = p[i];
            literal_frequency[p[i]]++;
            i++;
        }
    }
    return t;
}

#if SIC_X86_64_V3
SIC_TARGET_X86_64_V3 static size_t tokenize_x86_64_v3(const uint8_t *p, size_t n, size_t bpp, uint32_t *tokens,
                                                      uint32_t *literal_frequency, uint32_t *distance_frequency) {
    return tokenize_with(p, n, bpp, tokens, literal_frequency, distance_frequency, 1);
}
#endif

static size_t tokenize(const uint8_t *p, size_t n, size_t bpp, uint32_t *tokens,
                       uint32_t *literal_frequency, uint32_t *distance_frequency) {
#if SIC_X86_64_V3
    if (stickers_cpu_has_x86_64_v3()) return tokenize_x86_64_v3(p, n, bpp, tokens, literal_frequency, distance_frequency);
#endif
    return tokenize_with(p, n, bpp, tokens, literal_frequency, distance_frequency, 0);
}

static void write_stored(sic_deflater *d, const uint8_t *p, size_t n, int final) {
    do {
        size_t piece = n > 65535 ? 65535 : n;
        n -= piece;
        if (!reserve(d, piece + 16)) return;
        put_bits(d, final && n == 0, 1);
        put_bits(d, 0, 2);
        align_to_byte(d);
        uint8_t header[4] = {(uint8_t)piece, (uint8_t)(piece >> 8), (uint8_t)~piece, (uint8_t)(~piece >> 8)};
        memcpy(d->out + d->size, header, 4);
        memcpy(d->out + d->size + 4, p, piece);
        d->size += 4 + piece;
        p += piece;
    } while (n > 0);
}

/// The buffered bytes as one dynamic block (or stored blocks, when smaller).
static void write_block(sic_deflater *d, int final) {
    const uint8_t *p = d->chunk;
    size_t n = d->chunk_size;
    uint32_t literal_frequency[LITERALS] = {0}, distance_frequency[DISTANCES] = {0};
    size_t count = tokenize(p, n, d->bpp, d->tokens, literal_frequency, distance_frequency);
    literal_frequency[256] = 1;

    uint8_t literal_lengths[LITERALS], distance_lengths[DISTANCES];
    huffman_lengths(literal_frequency, LITERALS, 15, literal_lengths);
    huffman_lengths(distance_frequency, DISTANCES, 15, distance_lengths);
    complete(literal_lengths, LITERALS);
    complete(distance_lengths, DISTANCES);
    int hlit = LITERALS, hdist = DISTANCES;
    while (hlit > 257 && !literal_lengths[hlit - 1]) hlit--;
    while (hdist > 1 && !distance_lengths[hdist - 1]) hdist--;

    // The two code-length lists, run-length coded with symbols 16 (repeat), 17 and 18 (zeros).
    uint8_t all[LITERALS + DISTANCES];
    memcpy(all, literal_lengths, (size_t)hlit);
    memcpy(all + hlit, distance_lengths, (size_t)hdist);
    int total = hlit + hdist;
    uint8_t rle_symbol[LITERALS + DISTANCES], rle_extra[LITERALS + DISTANCES];
    int rle = 0;
    uint32_t code_length_frequency[CODE_LENGTHS] = {0};
    for (int i = 0; i < total;) {
        int value = all[i], run = 1;
        while (i + run < total && all[i + run] == value) run++;
        i += run;
        if (value == 0) {
            while (run >= 11) { int r = run > 138 ? 138 : run; rle_symbol[rle] = 18; rle_extra[rle++] = (uint8_t)(r - 11); run -= r; }
            if (run >= 3) { rle_symbol[rle] = 17; rle_extra[rle++] = (uint8_t)(run - 3); run = 0; }
        } else {
            rle_symbol[rle] = (uint8_t)value; rle_extra[rle++] = 0; run--;
            while (run >= 3) { int r = run > 6 ? 6 : run; rle_symbol[rle] = 16; rle_extra[rle++] = (uint8_t)(r - 3); run -= r; }
        }
        while (run-- > 0) { rle_symbol[rle] = (uint8_t)value; rle_extra[rle++] = 0; }
    }
    for (int i = 0; i < rle; i++) code_length_frequency[rle_symbol[i]]++;
    uint8_t code_length_lengths[CODE_LENGTHS];
    huffman_lengths(code_length_frequency, CODE_LENGTHS, 7, code_length_lengths);
    complete(code_length_lengths, CODE_LENGTHS);
    int hclen = CODE_LENGTHS;
    while (hclen > 4 && !code_length_lengths[code_length_order[hclen - 1]]) hclen--;

    // Its exact size, against stored blocks' (5 bytes per 65535 and a byte of alignment at most).
    uint64_t bits = 3 + 14 + 3 * (uint64_t)hclen;
    for (int i = 0; i < rle; i++) {
        int s = rle_symbol[i];
        bits += code_length_lengths[s] + (s == 16 ? 2 : s == 17 ? 3 : s == 18 ? 7 : 0);
    }
    for (int i = 0; i < LITERALS; i++) bits += (uint64_t)literal_frequency[i] * literal_lengths[i];
    for (int i = 257; i < LITERALS; i++) bits += (uint64_t)literal_frequency[i] * length_extra[i - 257];
    for (int i = 0; i < DISTANCES; i++) bits += (uint64_t)distance_frequency[i] * (distance_lengths[i] + distance_extra[i]);
    uint64_t stored_bits = 8 * ((uint64_t)n + 5 * (n / 65535 + 1) + 1);
    if (stored_bits <= bits) { write_stored(d, p, n, final); return; }

    if (!reserve(d, (size_t)(bits / 8) + 16)) return;
    uint16_t literal_codes[LITERALS], distance_codes[DISTANCES], code_length_codes[CODE_LENGTHS];
    canonical_codes(literal_lengths, LITERALS, literal_codes);
    canonical_codes(distance_lengths, DISTANCES, distance_codes);
    canonical_codes(code_length_lengths, CODE_LENGTHS, code_length_codes);
    put_bits(d, final ? 1 : 0, 1);
    put_bits(d, 2, 2);
    put_bits(d, (uint32_t)(hlit - 257), 5);
    put_bits(d, (uint32_t)(hdist - 1), 5);
    put_bits(d, (uint32_t)(hclen - 4), 4);
    for (int i = 0; i < hclen; i++) put_bits(d, code_length_lengths[code_length_order[i]], 3);
    for (int i = 0; i < rle; i++) {
        int s = rle_symbol[i];
        put_bits(d, code_length_codes[s], code_length_lengths[s]);
        if (s >= 16) put_bits(d, rle_extra[i], s == 16 ? 2 : s == 17 ? 3 : 7);
    }
    // The tokens, each as one run of bits: a literal's code, or a match's length code, its extra
    // bits and its distance code (tokenize makes distances 1 and 4 only: no extra bits), looked up
    // whole. The bit buffer stays in registers, and each token ends with one unconditional 8-byte
    // store (at most 7 + 35 bits pending, 7 + 48 for a distance with extra bits; `reserve` above
    // left 16 bytes of room past the block).
    uint64_t literal_bits[256], match_bits[MAX_MATCH + 1];
    uint8_t literal_count[256], match_count[MAX_MATCH + 1];
    for (int i = 0; i < 256; i++) { literal_bits[i] = literal_codes[i]; literal_count[i] = literal_lengths[i]; }
    for (int length = 3; length <= MAX_MATCH; length++) {
        int lc = length_code(length);
        match_bits[length] = literal_codes[257 + lc] | (uint64_t)(length - length_base[lc]) << literal_lengths[257 + lc];
        match_count[length] = (uint8_t)(literal_lengths[257 + lc] + length_extra[lc]);
    }
    const int distance_symbol[5] = {0, distance_code(1), distance_code(2), distance_code(3), distance_code(4)};
    uint64_t pending = d->bits;
    unsigned bit_count = (unsigned)d->bit_count;
    uint8_t *out = d->out + d->size;
    while (bit_count >= 8) { *out++ = (uint8_t)pending; pending >>= 8; bit_count -= 8; }  // the header's whole bytes
    const uint32_t *tokens = d->tokens;
    for (size_t i = 0; i < count; i++) {
        uint32_t token = tokens[i];
        if (!(token & MATCH)) {
            pending |= literal_bits[token] << bit_count;
            bit_count += literal_count[token];
        } else {
            unsigned length = token & 0x1FF, distance = (token >> 9) & 0xFFFF;
            int dc = distance <= 4 ? distance_symbol[distance] : distance_code((int)distance);
            pending |= match_bits[length] << bit_count;
            bit_count += match_count[length];
            pending |= (uint64_t)distance_codes[dc] << bit_count;
            bit_count += distance_lengths[dc];
            if (distance_extra[dc]) {  // never for tokenize's distances; kept for any caller's
                pending |= (uint64_t)(distance - distance_base[dc]) << bit_count;
                bit_count += distance_extra[dc];
            }
        }
        memcpy(out, &pending, 8);  // little-endian, as deflate's bit order wants
        out += bit_count >> 3;
        pending >>= bit_count & ~7u;
        bit_count &= 7;
    }
    d->size = (size_t)(out - d->out);
    d->bits = pending;
    d->bit_count = (int)bit_count;
    put_bits(d, literal_codes[256], literal_lengths[256]);
}

// ---------------------------------------------------------------- the stream

int sic_deflater_init(sic_deflater *d, size_t bpp, size_t expected_input) {
    memset(d, 0, sizeof *d);
    d->bpp = bpp ? bpp : 1;
    d->capacity = expected_input / 2 + 1024;
    d->out = malloc(d->capacity);
    d->chunk_capacity = BLOCK_BYTES;
    d->chunk = malloc(d->chunk_capacity);
    d->tokens = malloc(d->chunk_capacity * sizeof(uint32_t));
    if (!d->out || !d->chunk || !d->tokens) { sic_deflater_free(d); return 0; }
    return 1;
}

void sic_deflater_free(sic_deflater *d) {
    free(d->out);
    free(d->chunk);
    free(d->tokens);
    d->out = NULL; d->chunk = NULL; d->tokens = NULL;
}

int sic_deflater_add(sic_deflater *d, const uint8_t *bytes, size_t count) {
    while (count > 0 && !d->failed) {
        size_t room = d->chunk_capacity - d->chunk_size;
        size_t piece = count < room ? count : room;
        memcpy(d->chunk + d->chunk_size, bytes, piece);
        d->chunk_size += piece;
        bytes += piece;
        count -= piece;
        if (d->chunk_size == d->chunk_capacity) {
            write_block(d, 0);
            d->chunk_size = 0;
        }
    }
    return !d->failed;
}

int sic_deflater_finish(sic_deflater *d, int last) {
    if (d->failed) return 0;
    if (d->chunk_size > 0 || last) write_block(d, last);
    d->chunk_size = 0;
    if (d->failed || !reserve(d, 16)) return 0;
    if (!last) {  // a sync flush: an empty stored block leaves the stream on a byte boundary
        put_bits(d, 0, 3);
        align_to_byte(d);
        static const uint8_t empty[4] = {0, 0, 0xFF, 0xFF};
        memcpy(d->out + d->size, empty, 4);
        d->size += 4;
    }
    align_to_byte(d);
    return 1;
}
