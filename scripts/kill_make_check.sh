#!/usr/bin/env bash
# Issue 36's acceptance, by hand: `stickers make` killed with kill -9 at random moments (KILLS
# times, default 15), then one clean run over the same photos, cache and library. Afterwards no
# temporary may be left anywhere under the cache, the library or the output folder (nor a
# --no-cache folder of a killed run in TMPDIR), the library database must pass
# PRAGMA integrity_check, and the pack must be valid and hold every photo.
#
#   scripts/kill_make_check.sh [STICKERS_BIN] [PHOTOS_DIR]     (defaults: .build/debug/stickers, Samples)
#   KILLS=15 MAX_DELAY=4 scripts/kill_make_check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-.build/debug/stickers}")
photos=$(realpath "${2:-Samples}")
kills=${KILLS:-15}
max_delay=${MAX_DELAY:-4}
work=$(mktemp -d /tmp/kill-make-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
# The model is fetched once, outside the timed runs, where it always lives (shared by every user).
model=$("$bin" model fetch 2>/dev/null | tail -1) || { echo "the cut-out model cannot be had"; exit 69; }
export STICKERS_MODEL="$model" STICKERS_CACHE_DIR="$work/cache" STICKERS_DATA_DIR="$work/library" TMPDIR="$work/tmp"
mkdir -p "$work/out" "$TMPDIR"

for i in $(seq 1 "$kills"); do
    # A moment from 0 to MAX_DELAY seconds, in milliseconds: startup, processing, cache writes,
    # the pack's own write and the library's record all get hit over 15 runs.
    delay_ms=$(( RANDOM % (max_delay * 1000) ))
    extra=()
    if (( i % 5 == 0 )); then extra=(--no-cache); fi
    "$bin" make "$photos" -o "$work/out/pack.zip" "${extra[@]}" >/dev/null 2>&1 &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    if kill -9 "$pid" 2>/dev/null; then state=killed; else state=finished; fi
    wait "$pid" 2>/dev/null || true
    printf 'run %2d: %s at %5d ms%s\n' "$i" "$state" "$delay_ms" "${extra:+ (--no-cache)}"
done

echo "clean run:"
"$bin" make "$photos" -o "$work/out/pack.zip" --json > "$work/report.json"
python3 - "$work/report.json" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
print(f"  {len(report['stickers'])} stickers ({report.get('fromCache', 0)} from the cache), {len(report['invalid'])} invalid")
EOF

status=0
left=$(find "$work/cache" "$work/library" "$work/out" "$TMPDIR" \
    \( -name '*.partial' -o -name '.partial-*' -o -name '.evicting-*' -o -name 'stickers-nocache-*' -o -name 'stickers-web-*' \) -print)
if [ -n "$left" ]; then echo "temporaries left:"; echo "$left"; status=1; else echo "no temporary left"; fi

integrity=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' \
    "$STICKERS_DATA_DIR/library.sqlite")
echo "integrity_check: $integrity"
[ "$integrity" = ok ] || status=1

python3 - "$work/out/pack.zip" "$work/report.json" <<'EOF' || status=1
import json, sys, zipfile
pack, report = zipfile.ZipFile(sys.argv[1]), json.load(open(sys.argv[2]))
assert pack.testzip() is None, "a damaged member"
manifest = json.loads(pack.read("manifest.json"))
names = {s["name"] for s in manifest["stickers"]}
assert len(names) == len(report["stickers"]) > 0, (names, report["stickers"])
for s in manifest["stickers"]:
    for member in (s["sticker"], s["gradient"]):
        assert pack.read(member)[:8] == b"\x89PNG\r\n\x1a\n", member
print(f"pack valid: {len(names)} stickers")
EOF
exit $status
