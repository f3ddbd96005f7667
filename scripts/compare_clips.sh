#!/usr/bin/env bash
# Animated stickers against the per-frame peer (rembg's U²-Net-p on every frame), on our
# development set (scripts/make_clips.py, made here if missing) and on the shared one
# (../shared/evalset-clips). The peer's masks are computed once per set and kept in CACHE_DIR
# (scripts/clip_eval.py peer: the peer is deterministic); then ours is run and both are scored
# with ../shared/eval/clips.py's own functions (scripts/clip_eval.py score): per clip and overall
# IoU, alpha error, flicker and whole-process time; no-subject clips must exit 65 and write
# nothing. Then the memory of a 3 s piece from the middle of a 60 s 1080p clip (/usr/bin/time -v).
# The peer's time is the one measured when its cache was made: compare times on a like load only
# (delete CACHE_DIR to measure both in one run).
#   scripts/compare_clips.sh BIN [DEVCLIPS_DIR] [CACHE_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
dev="${2:-/tmp/stickers-devclips}"
cache="${3:-/tmp/stickers-clip-peer}"
shared="$here/../../shared/evalset-clips"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
[ -f "$dev/c16.json" ] || python3 "$here/make_clips.py" "$dev" >/dev/null
status=0
echo "== development set (scripts/make_clips.py)"
python3 "$here/clip_eval.py" peer "$dev" "$cache/dev"
python3 "$here/clip_eval.py" score "$bin" "$dev" "$cache/dev" "$out/dev" || status=1
if [ -d "$shared" ]; then
    echo "== ../shared/evalset-clips"
    python3 "$here/clip_eval.py" peer "$shared" "$cache/shared"
    python3 "$here/clip_eval.py" score "$bin" "$shared" "$cache/shared" "$out/shared" || status=1
fi
echo "== memory: 3 s from the middle of a 60 s 1080p clip"
ffmpeg -v error -f lavfi -i "testsrc2=s=1920x1080:r=30:d=60" -vf "drawbox=x=800+300*sin(t):y=400:w=320:h=280:color=red@1:t=fill" \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$out/long.mp4"
/usr/bin/time -v "$bin" sticker "$out/long.mp4" --start 28 --duration 3 -o "$out/long.webp" 2> "$out/time.txt" || true
grep -E "Maximum resident set size|Elapsed \(wall clock\)|Exit status" "$out/time.txt"
exit $status
