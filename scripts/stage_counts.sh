#!/usr/bin/env bash
# Instructions per stage (callgrind, release build) of a palette, one photo's sticker and `make`
# per photo, printed as a table by scripts/stage_counts.py (see there for how stages are told).
#
#   scripts/stage_counts.sh [BIN] [PHOTO] [MAKE_PHOTO…]
#     BIN         default .build/release/stickers (build it with `swift build -c release`)
#     PHOTO       default ../shared/evalset/003.jpg (palette and sticker)
#     MAKE_PHOTO  default the dev set's 002, 003 and 008: `make --no-cache --jobs 1` over them;
#                 its column is the whole process, so divide by their number for "per photo"
#
# Valgrind shows the program an AVX2 CPU without AVX-512, so the network runs its AVX2 kernels
# here whatever the host has; their FMAs are emulated lane by lane, so a sticker takes ~8 minutes
# of CPU and make's three photos ~25. With STICKERS_KERNELS=portable in the environment the network
# runs its portable kernels (its row is then theirs, the other rows are unchanged): ~4 minutes a photo.
# Counts do not depend on the machine's load; wall time does not enter. Profiles are kept in
# $STAGE_COUNTS_DIR (default a temporary folder) for callgrind_annotate.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/stickers}
photo=${2:-../shared/evalset/003.jpg}
shift $(( $# > 2 ? 2 : $# ))
make_photos=("$@")
[ ${#make_photos[@]} -gt 0 ] || make_photos=(../shared/evalset/002.jpg ../shared/evalset/003.jpg ../shared/evalset/008.jpg)
work=${STAGE_COUNTS_DIR:-$(mktemp -d)}
mkdir -p "$work"
# valgrind 3.19 cannot read the Swift build's DWARF; the same code without it. The preload works
# around valgrind's sigsuspend (scripts/valgrind_sigsuspend.c).
strip --strip-debug -o "$work/stickers" "$bin"
cc -O2 -shared -fPIC -o "$work/valgrind_sigsuspend.so" scripts/valgrind_sigsuspend.c
export SWIFT_DETERMINISTIC_HASHING=1 STICKERS_DATA_DIR="$work/data" STICKERS_CACHE_DIR="$work/cache"
profile() {
    local name=$1
    shift
    LD_PRELOAD="$work/valgrind_sigsuspend.so" valgrind --tool=callgrind --callgrind-out-file="$work/$name" \
        "$work/stickers" "$@" > /dev/null 2> "$work/$name.log" || { cat "$work/$name.log" >&2; exit 1; }
}
# Two at a time (the counts do not depend on it): the sticker and the palette beside make.
{ profile palette palette "$photo" -n 5 --format json && profile sticker sticker "$photo" -o "$work/sticker.png"; } &
first=$!
profile make make "${make_photos[@]}" -o "$work/pack.zip" --no-cache --jobs 1 &
second=$!
wait $first && wait $second
cd "$work" && python3 "$OLDPWD/scripts/stage_counts.py" palette sticker make
echo "(make: ${#make_photos[@]} photos; profiles in $work)"
