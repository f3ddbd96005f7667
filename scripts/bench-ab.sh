#!/usr/bin/env bash
# Before/after: runs `stickers-bench SUITE…` from two builds alternately (A, B, A, B, …) so both
# see the same machine load, and prints each run's timing lines under its label.
# Usage: scripts/bench-ab.sh BEFORE_BIN AFTER_BIN ROUNDS SUITE…
# e.g.  git worktree add ../base main && (cd ../base && swift build -c release --product stickers-bench)
#       scripts/bench-ab.sh ../base/.build/release/stickers-bench .build/release/stickers-bench 3 inference sticker
set -euo pipefail
before=$1 after=$2 rounds=$3
shift 3
export STICKERS_BENCH_NO_ORT=1  # ours only: ONNX Runtime is the same in both
for round in $(seq 1 "$rounds"); do
    for side in before after; do
        bin=${!side}
        echo "== $side, round $round ($(cut -d' ' -f1 /proc/loadavg) load)"
        "$bin" "$@" | grep -E 'median|×' || true
    done
done
