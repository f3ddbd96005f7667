#!/usr/bin/env bash
# The guard against the next speed regression: instruction counts (valgrind) of three
# stages, compared with the counts committed in scripts/perf_counts.json. A stage whose count rose
# by more than the file's tolerance (a few percent) fails, named; a fall is reported, not failed.
#
#   scripts/perf_guard.sh [STICKERS_BIN]               check (default .build/debug/stickers, as CI builds it)
#   PERF_GUARD_UPDATE=1 scripts/perf_guard.sh [BIN]    rewrite scripts/perf_counts.json on purpose
#
# Update the counts in the commit that makes a stage cost more (or less), saying why in its body.
#
# Counted with cachegrind without its cache simulation (cheaper than callgrind, same counts).
# Instruction counts do not depend on the machine's load, so they can gate CI where wall time
# cannot. Determinism: one CPU (taskset -c 0; `make --jobs 1`), deterministic hashing, the model verified before measuring (its stamp), fresh
# temporary cache and library folders. Under valgrind the CPU has no AVX-512 (valgrind does not
# emulate it), so the counts are of the AVX2 kernels; a CPU without AVX2 counts the portable ones
# and its counts are not comparable (the script says so and skips). Not yet checked: how far
# repeated runs agree (thread scheduling may move counts a little), and that activeProcessorCount
# follows the affinity mask (one network thread, one band).
#
# Stages (small inputs: valgrind runs ~50-100x slower than native):
#   palette  stickers palette Samples/chelsea-cat.jpg -n 5 --format json
#   sticker  stickers sticker Samples/chelsea-cat.jpg -o … --mask …   (one photo's cut-out)
#   make     stickers make Samples/chelsea-cat.jpg Samples/rocket.jpg --no-cache (two Samples)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug/stickers}
counts_file=scripts/perf_counts.json
update=${PERF_GUARD_UPDATE:-0}

[ -x "$bin" ] || { echo "perf_guard: no executable at $bin (swift build first)"; exit 2; }
command -v valgrind >/dev/null || { echo "perf_guard: valgrind is not installed (apt-get install valgrind)"; exit 2; }
if ! grep -qw avx2 /proc/cpuinfo; then
    echo "perf_guard: this CPU has no AVX2; the committed counts are of the AVX2 kernels: skipped"
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
export SWIFT_DETERMINISTIC_HASHING=1
export STICKERS_CACHE_DIR="$work/cache" STICKERS_DATA_DIR="$work/data"
# The model fetched and its digest verified once, outside the counts (later runs trust its stamp).
"$bin" model fetch >/dev/null

# count NAME COMMAND…: runs COMMAND under callgrind on CPU 0, prints NAME and its instruction count.
count() {
    local name=$1
    shift
    local log="$work/$name.log"
    if ! LD_PRELOAD="$work/valgrind_sigsuspend.so" taskset -c 0 valgrind --tool=cachegrind --cache-sim=no --branch-sim=no --cachegrind-out-file=/dev/null --log-file="$log" "$@" >/dev/null 2>"$work/$name.err"; then
        echo "perf_guard: stage $name failed:" >&2
        cat "$work/$name.err" "$log" >&2
        exit 1
    fi
    local n
    n=$(sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' "$log" | tail -1 | tr -d ,)
    [ -n "$n" ] || { echo "perf_guard: no instruction count for $name in $log" >&2; exit 1; }
    echo "$name $n"
}

{
    count palette "$bin" palette Samples/chelsea-cat.jpg -n 5 --format json
    count sticker "$bin" sticker Samples/chelsea-cat.jpg -o "$work/cat.png" --mask "$work/cat.mask.png"
    count make "$bin" make Samples/chelsea-cat.jpg Samples/rocket.jpg -o "$work/pack.zip" --no-cache --jobs 1
} > "$work/measured"

python3 - "$counts_file" "$work/measured" "$update" <<'EOF'
import json, sys
path, measured_path, update = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
measured = {}
for line in open(measured_path):
    name, n = line.split()
    measured[name] = int(n)
try:
    committed = json.load(open(path))
except FileNotFoundError:
    committed = {"tolerance": 0.03, "counts": {}}
tolerance = committed.get("tolerance", 0.03)
if update:
    committed["counts"] = measured
    committed["tolerance"] = tolerance
    with open(path, "w") as f:
        json.dump(committed, f, indent=2, sort_keys=True)
        f.write("\n")
    for name, n in measured.items():
        print(f"  {name:8} {n:>15,} instructions (written to {path})")
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
    print(f"  {name:8} {n:>15,} instructions, committed {base:>15,} ({change:+.1%}) {verdict}")
if failed:
    print(f"perf_guard: the instruction count of {', '.join(failed)} rose; if the cost is meant, "
          f"PERF_GUARD_UPDATE=1 scripts/perf_guard.sh and commit {path} saying why")
    sys.exit(1)
EOF
