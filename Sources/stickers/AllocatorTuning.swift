import CAllocatorTuning

/// Keeps freed memory in the process's heap for the next allocation, for the one-photo commands
/// (`sticker`, `palette`).
///
/// Why: they allocate and free multi-megabyte planes and tensors over and over (the
/// guided filter alone makes 17 working-size planes). glibc hands a freed block above its mmap
/// threshold back to the kernel at once, so the next block of that size faults every page in
/// again: by `perf`, page faults were a quarter of a 0.8 MP photo's CPU time. With the threshold at
/// its 32 MiB maximum (U²-Net-p's largest tensor is 26 MB) and no trimming, freed blocks are
/// reused instead. Measured, interleaved: `stickers sticker` 266 → 248 ms on a 768×1024 photo,
/// 218 → 208 ms on 640×480; peak RSS of a 12 MP sticker 191 → 220 MB. Not for `make` (its batch
/// wall time did not change, its peak RSS rose 315 → 340 MB against a 400 MB bar) nor `serve` (a
/// long-running process should give memory back: it takes `returnLargeBlocksAtOnce`).
enum AllocatorTuning {
    static func keepFreedMemoryForReuse() {
        _ = stickers_keep_freed_memory_for_reuse()
    }

    /// For the long-running `serve`: its memory must not grow with the hours of use, and goes
    /// back to the system when idle (`make` uses `oneHeapKeptForReuse`, below).
    ///
    /// Why: glibc raises its mmap threshold each time a large mapped block is freed (up to 32 MiB),
    /// so after the first photo the multi-megabyte planes come from the heap, whose free space
    /// fragments across threads' arenas: peak RSS of a release `make` grew 311 → 353 → 425 MB over
    /// 25 → 50 → 100 photos. At a fixed 2 MiB threshold it is flat — 247 → 251 MB — for ~10 % more
    /// wall time (the kernel zeroes the pages of each new plane: sys time 1.8 → 6.3 s of 23 s).
    /// Measured with scripts/library_bench.sh's photo set; see docs/benchmarks.md. `serve`, five
    /// minutes of mixed use (scripts/soak_serve.py): peak RSS 338 → 280 MB, RSS once idle at the
    /// end 221 → 103 MB.
    static func returnLargeBlocksAtOnce() {
        _ = stickers_return_large_blocks_at_once()
    }

    /// For `make`'s batch: freed memory reused as in the one-photo commands, and its peak memory
    /// flat however many photos the batch has.
    ///
    /// Why: with glibc's defaults the planes of photos processed on different threads fill
    /// different arenas (heaps), whose free space adds up and fragments: peak RSS of a release
    /// `make` grew 311 → 353 → 425 MB over 25 → 50 → 100 photos. A fixed 2 MiB mmap threshold
    /// (the previous cure) kept it flat but mapped every plane afresh, so the kernel faulted in and
    /// zeroed each page of each plane: system time was a fifth of `make`'s CPU and its wall time
    /// rose ~35 % (issue 37). One shared heap, kept for reuse, is flat and costs no faults; the
    /// threads' small allocations come from their own tcache, so the shared heap's lock is not
    /// contended (user time unchanged). Figures in docs/benchmarks.md ("make: the lost third").
    static func oneHeapKeptForReuse() {
        _ = stickers_one_heap_kept_for_reuse()
    }
}
