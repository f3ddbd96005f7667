#ifndef STICKERS_ALLOCATOR_TUNING_H
#define STICKERS_ALLOCATOR_TUNING_H

/// glibc only (elsewhere a no-op): freed blocks up to 32 MiB stay in the heap for reuse instead of
/// going back to the kernel (mallopt's M_MMAP_THRESHOLD and M_TRIM_THRESHOLD). Swift's Glibc
/// module does not include <malloc.h>, hence this C function. Returns 1 when both took effect.
int stickers_keep_freed_memory_for_reuse(void);

/// glibc only (elsewhere a no-op): as stickers_keep_freed_memory_for_reuse, and threads started
/// from now on share the existing heaps (mallopt's M_ARENA_MAX) instead of each growing its own.
/// Returns 1 when all took effect.
int stickers_one_heap_kept_for_reuse(void);

int stickers_return_large_blocks_at_once(void);

#endif
