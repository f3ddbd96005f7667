#!/usr/bin/env bash
# The guard against the next speed regression: instruction counts (valgrind) of three stages,
# compared with the counts committed in scripts/perf_counts.json. A stage whose count rose by more
# than the file's tolerance (a few percent) fails, named; a fall is reported, not failed.
#
#   scripts/perf_guard.sh [STICKERS_BIN]               check (default .build/debug/stickers, as CI builds it)
#   PERF_GUARD_UPDATE=1 scripts/perf_guard.sh [BIN]    rewrite scripts/perf_counts.json on purpose
#
# Update the counts in the commit that makes a stage cost more (or less), saying why in its body.
#
# Stages (the real network at its real 320 px side):
#   palette  stickers palette Samples/chelsea-cat.jpg -n 5 --format json
#   sticker  stickers sticker Samples/chelsea-cat.jpg -o … --mask …   (one photo's cut-out)
#   make     stickers make Samples/chelsea-cat.jpg Samples/rocket.jpg --no-cache --jobs 1 (two Samples)
#
# Why the counts are the same on every machine of the kind, whatever its load (docs/benchmarks.md,
# "The guard in CI"):
# - Instructions, counted by cachegrind without its cache simulation; each stage is one process.
# - Valgrind shows the program a CPU of its own (an Intel i7-4910MQ, AVX2, no AVX-512) on any AVX2
#   host, so what glibc, libjpeg-turbo and our CPUID checks choose does not follow the host (an AMD
#   EPYC here). A host without AVX2 would be shown another CPU: the check is skipped there.
# - The network runs the portable kernels (STICKERS_KERNELS=portable), the very Swift source of the
#   AVX2 kernels compiled for the baseline: valgrind runs AVX2's fused multiply-adds lane by lane,
#   ~11× slower per instruction, and has no AVX-512 at all (those kernels are not counted).
# - The work is split by the core count Foundation reports (2 on this machine kind, whatever the
#   affinity): it is recorded with the counts, and another count skips the check.
# - Deterministic hashing, the model's digest verified before counting (later runs trust its
#   stamp), fresh cache and library folders, a fixed SOURCE_DATE_EPOCH.
# The stages run two at a time (a count does not depend on what else runs): ~1 minute on a quiet
# 2-core machine with the debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug/stickers}
counts_file=scripts/perf_counts.json
update=${PERF_GUARD_UPDATE:-0}

[ -x "$bin" ] || { echo "perf_guard: no executable at $bin (swift build first)"; exit 2; }
command -v valgrind >/dev/null || { echo "perf_guard: valgrind is not installed (apt-get install valgrind)"; exit 2; }
if ! grep -qw avx2 /proc/cpuinfo; then
    echo "perf_guard: this CPU has no AVX2, so valgrind shows the program another CPU than the counts were made on: skipped"
    exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 cannot read the Swift debug build's DWARF ("possibly corrupted debuginfo"): a copy
# without it runs the same instructions. The preload works around valgrind's sigsuspend (see the
# C file).
strip --strip-debug -o "$work/stickers" "$bin"
bin="$work/stickers"
cc -O2 -shared -fPIC -o "$work/valgrind_sigsuspend.so" scripts/valgrind_sigsuspend.c
export SWIFT_DETERMINISTIC_HASHING=1 STICKERS_KERNELS=portable SOURCE_DATE_EPOCH=1700000000
export STICKERS_CACHE_DIR="$work/cache" STICKERS_DATA_DIR="$work/data"
# The model fetched and its digest verified once, outside the counts (later runs trust its stamp).
"$bin" model fetch >/dev/null
cores=$(getconf _NPROCESSORS_ONLN)

# count NAME COMMAND…: runs COMMAND under cachegrind, prints NAME, its instruction count and seconds.
count() {
    local name=$1
    shift
    local log="$work/$name.log" start=$SECONDS
    if ! LD_PRELOAD="$work/valgrind_sigsuspend.so" valgrind --tool=cachegrind --cache-sim=no --branch-sim=no \
            --cachegrind-out-file=/dev/null --log-file="$log" "$@" >/dev/null 2>"$work/$name.err"; then
        echo "perf_guard: stage $name failed:" >&2
        cat "$work/$name.err" "$log" >&2
        return 1
    fi
    local n
    n=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$log" | tail -1 | tr -d ,)
    [ -n "$n" ] || { echo "perf_guard: no instruction count for $name in $log" >&2; return 1; }
    echo "$name $n $((SECONDS - start))"
}

# Two at a time: the palette and the cut-out beside make (about as long as the other two).
{
    count palette "$bin" palette Samples/chelsea-cat.jpg -n 5 --format json
    count sticker "$bin" sticker Samples/chelsea-cat.jpg -o "$work/cat.png" --mask "$work/cat.mask.png"
} > "$work/measured.1" &
first=$!
count make "$bin" make Samples/chelsea-cat.jpg Samples/rocket.jpg -o "$work/pack.zip" --no-cache --jobs 1 > "$work/measured.2" &
second=$!
status=0
wait $first || status=1
wait $second || status=1
[ $status -eq 0 ] || exit 1
cat "$work/measured.1" "$work/measured.2" > "$work/measured"

python3 - "$counts_file" "$work/measured" "$update" "$cores" <<'EOF'
import json, sys
path, measured_path, update, cores = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
measured, seconds = {}, {}
for line in open(measured_path):
    name, n, s = line.split()
    measured[name], seconds[name] = int(n), int(s)
try:
    committed = json.load(open(path))
except FileNotFoundError:
    committed = {"tolerance": 0.03, "counts": {}}
tolerance = committed.get("tolerance", 0.03)
if update:
    committed.update(counts=measured, tolerance=tolerance, cores=cores)
    with open(path, "w") as f:
        json.dump(committed, f, indent=2, sort_keys=True)
        f.write("\n")
    for name, n in measured.items():
        print(f"  {name:8} {n:>15,} instructions ({seconds[name]} s; written to {path})")
    sys.exit(0)
if committed.get("cores", cores) != cores:
    print(f"perf_guard: the counts were made with {committed['cores']} cores, this machine has {cores}: "
          "the work is split otherwise, so they are not comparable: skipped")
    sys.exit(0)
failed = []
for name, n in measured.items():
    base = committed["counts"].get(name)
    if base is None:
        print(f"  {name:8} {n:>15,} instructions (no committed count: PERF_GUARD_UPDATE=1 to add it)")
        failed.append(name)
        continue
    change = n / base - 1
    verdict = "ok"
    if change > tolerance:
        verdict = f"FAILED: more than {tolerance:.0%} over the committed count"
        failed.append(name)
    elif change < -tolerance:
        verdict = "cheaper: update the committed count (PERF_GUARD_UPDATE=1) to keep the gain"
    print(f"  {name:8} {n:>15,} instructions, committed {base:>15,} ({change:+.2%}, {seconds[name]} s) {verdict}")
if failed:
    print(f"perf_guard: the instruction count of {', '.join(failed)} rose; if the cost is meant, "
          f"PERF_GUARD_UPDATE=1 scripts/perf_guard.sh and commit {path} saying why")
    sys.exit(1)
EOF
