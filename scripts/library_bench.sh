#!/usr/bin/env bash
# The library's acceptance figures (issue 24), printed as a table for docs/benchmarks.md:
#   1. peak RSS of `make` over 25 and over 100 photos (streaming: the peak must not grow with N);
#   2. a second `make` over the same 100 photos (everything from the cache), its speed-up, and
#      whether its stickers are byte-identical to the first run's;
#   3. `kill -9` in the middle of a batch, then the same command: how many photos it took from the
#      cache and how many it processed (only the unfinished ones);
#   4. with BASELINE=path/to/an/older/stickers, the same 25/100 peaks for that binary (same run).
# The photos are the Samples re-encoded with one pixel changed per copy, so every digest differs.
# Usage: scripts/library_bench.sh [BIN]   (default: builds and uses .build/release/stickers)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-}"
if [ -z "$bin" ]; then
    swift build -c release --product stickers >/dev/null
    bin=.build/release/stickers
fi
work="$(mktemp -d /tmp/stickers-library-bench.XXXXXX)"
# make records its packs in a library: the run's own, never the user's.
export STICKERS_DATA_DIR="$work/data"
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import os, sys
from PIL import Image
work = sys.argv[1]
samples = sorted(f for f in os.listdir("Samples") if f.lower().endswith((".jpg", ".png")))
for n in (25, 100):
    os.makedirs(f"{work}/photos{n}", exist_ok=True)
for i in range(100):
    name = samples[i % len(samples)]
    img = Image.open(f"Samples/{name}")
    exif = img.info.get("exif")
    img = img.convert("RGB")
    # A 16×16 corner block of a colour of its own: survives JPEG quantisation (one changed pixel
    # may not), so every copy has other bytes.
    for y in range(16):
        for x in range(16):
            img.putpixel((x, y), ((i * 37) % 256, (i * 11) % 256, 255 - i))
    stem, ext = os.path.splitext(name)
    out = f"{work}/photos100/{i:03d}-{stem}{ext}"
    if ext.lower() == ".png":
        img.save(out)
    else:
        img.save(out, quality=92, **({"exif": exif} if exif else {}))
    if i < 25:
        os.link(out, f"{work}/photos25/{os.path.basename(out)}")
PY

# Peak RSS (MB) and wall time (s) of one command, via GNU time's -v format.
measure() {
    local log="$work/time.log"
    /usr/bin/time -v "$@" >"$work/out.json" 2>"$log" || { echo "failed: $*" >&2; tail -5 "$log" >&2; return 1; }
    local rss wall
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$log")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; printf "%.1f", s}' "$log")
    echo "$rss $wall"
}
json_field() { python3 -c "import json,sys; print(json.load(open('$work/out.json'))['$1'])"; }

echo "| run | photos | peak RSS (MB) | wall (s) | from cache |"
echo "|---|---:|---:|---:|---:|"
read -r rss25 wall25 < <(measure "$bin" make "$work/photos25" -o "$work/p25.zip" --json --cache-dir "$work/cache25")
echo "| first make | 25 | $rss25 | $wall25 | $(json_field fromCache) |"
read -r rss100 wall100 < <(measure "$bin" make "$work/photos100" -o "$work/p100.zip" --json --cache-dir "$work/cache100")
echo "| first make | 100 | $rss100 | $wall100 | $(json_field fromCache) |"
read -r rss100b wall100b < <(measure "$bin" make "$work/photos100" -o "$work/p100b.zip" --json --cache-dir "$work/cache100")
echo "| second make (cache) | 100 | $rss100b | $wall100b | $(json_field fromCache) |"

mkdir -p "$work/a" "$work/b"
(cd "$work/a" && unzip -q ../p100.zip) && (cd "$work/b" && unzip -q ../p100b.zip)
if diff -r -q "$work/a" "$work/b" >/dev/null; then identical=yes; else identical=NO; fi
stickers=$(ls "$work/a" | grep -c '\.sticker\.png$')

# kill -9 once about a third of the photos are in the cache, then the same command again.
"$bin" make "$work/photos100" -o "$work/pk.zip" --json --cache-dir "$work/cachek" >/dev/null 2>&1 &
pid=$!
while [ "$(ls "$work/cachek/processed" 2>/dev/null | grep -vc '^\.' || true)" -lt 33 ]; do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
done
kill -9 "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
before=$(ls "$work/cachek/processed" | grep -vc '^\.' || true)
read -r rssk wallk < <(measure "$bin" make "$work/photos100" -o "$work/pk.zip" --json --cache-dir "$work/cachek")
fromk=$(json_field fromCache)
echo "| after kill -9 | 100 | $rssk | $wallk | $fromk |"

if [ -n "${BASELINE:-}" ]; then
    read -r brss25 bwall25 < <(measure "$BASELINE" make "$work/photos25" -o "$work/b25.zip" --json)
    echo "| baseline first make | 25 | $brss25 | $bwall25 | – |"
    read -r brss100 bwall100 < <(measure "$BASELINE" make "$work/photos100" -o "$work/b100.zip" --json)
    echo "| baseline first make | 100 | $brss100 | $bwall100 | – |"
fi

echo
python3 - <<PY
print(f"peak RSS 100 / 25 photos: {$rss100 / $rss25:.2f}x (limit 1.25x; 100-photo peak {$rss100} MB, limit 400 MB)")
print(f"second make: {$wall100 / max($wall100b, 0.01):.1f}x faster ({$wall100} s -> {$wall100b} s); stickers byte-identical: $identical ($stickers stickers)")
print(f"kill -9 with $before entries cached: the rerun took {$fromk} from the cache and processed {100 - $fromk - 0} (invalid photos included)")
PY
