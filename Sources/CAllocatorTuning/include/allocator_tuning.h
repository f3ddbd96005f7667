#ifndef STICKERS_ALLOCATOR_TUNING_H
#define STICKERS_ALLOCATOR_TUNING_H

/// glibc only (elsewhere a no-op): freed blocks up to 32 MiB stay in the heap for reuse instead of
/// going back to the kernel (mallopt's M_MMAP_THRESHOLD and M_TRIM_THRESHOLD). Swift's Glibc
/// module does not include <malloc.h>, hence this C function. Returns 1 when both took effect.
int stickers_keep_freed_memory_for_reuse(void);

/// glibc only (elsewhere a no-op): blocks of 2 MiB and more are mapped on their own and go back to
/// the kernel when freed, at a fixed threshold (mallopt's M_MMAP_THRESHOLD), which also stops
/// glibc from raising the threshold as large blocks are freed. Returns 1 when it took effect.
int stickers_return_large_blocks_at_once(void);

#endif
