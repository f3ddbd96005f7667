#!/usr/bin/env bash
# Before/after: runs `stickers-bench SUITE…` from two builds alternately (A, B, A, B, …) so both
# see the same machine load, and prints each run's timing lines under its label.
# Usage: scripts/bench-ab.sh BEFORE_BIN AFTER_BIN ROUNDS SUITE…
# e.g.  git worktree add ../base main && (cd ../base && swift build -c release --product stickers-bench)
#       scripts/bench-ab.sh ../base/.build/release/stickers-bench .build/release/stickers-bench 3 inference sticker
# BASELINE=BIN adds a third build, run first in each round (e.g. the build before a regression,
# to see whether BEFORE's loss is won back).
set -euo pipefail
before=$1 after=$2 rounds=$3
shift 3
baseline=${BASELINE:-}
sides="before after"
[ -n "$baseline" ] && sides="baseline $sides"
export STICKERS_BENCH_NO_ORT=1  # ours only: ONNX Runtime is the same in both
for round in $(seq 1 "$rounds"); do
    for side in $sides; do
        bin=${!side}
        echo "== $side, round $round ($(cut -d' ' -f1 /proc/loadavg) load)"
        # Timing lines and the sticker suite's stage lines (with their CPU time), then the whole
        # process's CPU time: less disturbed than wall time when other processes share the cores.
        /usr/bin/time -f "  process CPU time %U s user + %S s system" "$bin" "$@" 2>&1 | grep -E 'median|×| cpu |process CPU' || true
    done
done
