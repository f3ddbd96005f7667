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

    /// For `make`'s batch and the long-running `serve`: their memory must not grow with the
    /// number of photos or the hours of use.
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
}
