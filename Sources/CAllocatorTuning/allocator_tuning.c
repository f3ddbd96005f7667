#include "allocator_tuning.h"
#include <limits.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int stickers_keep_freed_memory_for_reuse(void) {
#if defined(__GLIBC__)
    // 32 MiB is the largest threshold glibc accepts on 64-bit (HEAP_MAX_SIZE / 2).
    return mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1 && mallopt(M_TRIM_THRESHOLD, INT_MAX) == 1;
#else
    return 0;
#endif
}

int stickers_one_heap_kept_for_reuse(void) {
#if defined(__GLIBC__)
    // Arenas already made (the main one, and the one of the thread that parsed the arguments)
    // stay; every thread from here on shares them instead of making its own.
    return mallopt(M_ARENA_MAX, 1) == 1 && stickers_keep_freed_memory_for_reuse();
#else
    return 0;
#endif
}

int stickers_return_large_blocks_at_once(void) {
#if defined(__GLIBC__)
    // A fixed threshold: blocks of 2 MiB and more are mapped and unmapped at once, never kept.
    return mallopt(M_MMAP_THRESHOLD, 2 << 20) == 1;
#else
    return 0;
#endif
}
