#!/usr/bin/env bash
# Animated stickers against the per-frame peer (rembg's U²-Net-p on every frame), in one run per
# set: our development set (scripts/make_clips.py, made here if missing) and the shared one
# (../shared/evalset-clips). Runs ../shared/eval/clips.py, which prints per clip and overall IoU,
# alpha error, flicker and whole-process time for both; then the memory of a 3 s piece from the
# middle of a 60 s 1080p clip (/usr/bin/time -v's peak resident size).
#   scripts/compare_clips.sh BIN [DEVCLIPS_DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
dev="${2:-/tmp/stickers-devclips}"
eval_dir="$here/../../shared/eval"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
[ -f "$dev/c01.json" ] || python3 "$here/make_clips.py" "$dev" >/dev/null
echo "== development set (scripts/make_clips.py)"
python3 "$eval_dir/clips.py" "$bin" "$dev" "$out/dev" || true
if [ -d "$here/../../shared/evalset-clips" ]; then
    echo "== ../shared/evalset-clips"
    python3 "$eval_dir/clips.py" "$bin" "$here/../../shared/evalset-clips" "$out/shared" || true
fi
echo "== memory: 3 s from the middle of a 60 s 1080p clip"
ffmpeg -v error -f lavfi -i "testsrc2=s=1920x1080:r=30:d=60" -vf "drawbox=x=800+300*sin(t):y=400:w=320:h=280:color=red@1:t=fill" \
    -c:v libx264 -preset ultrafast -pix_fmt yuv420p "$out/long.mp4"
/usr/bin/time -v "$bin" sticker "$out/long.mp4" --start 28 --duration 3 -o "$out/long.webp" 2> "$out/time.txt" || true
grep -E "Maximum resident set size|Elapsed \(wall clock\)|Exit status" "$out/time.txt"
