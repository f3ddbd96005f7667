#!/usr/bin/env bash
# Runs the release `stickers` on an emulated CPU without AVX2 (qemu-user, `-cpu Nehalem`: SSE4.2,
# no AVX) and natively, on the Samples, and compares what they write: `palette` output and the
# sticker and mask PNGs of `sticker --mask`. Bytes identical, or else the largest difference of a
# mask value (the portable kernels round a multiply-add twice where FMA rounds once).
# Usage: scripts/check-nehalem.sh [BINARY]   (default .build/release/stickers; needs the model)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/release/stickers}
# Float products natively too: on a CPU with AVX-512 BF16 the default takes BF16 products in some
# layers (issue 37), and this compares the portable kernels with the float ones.
export STICKERS_PRECISION=fp32
if ! command -v qemu-x86_64 >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >/dev/null
fi
python3 -c "import PIL, numpy" 2>/dev/null || pip install -q pillow numpy
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for photo in Samples/ladybird.jpg Samples/coffee.png Samples/chelsea-cat.jpg Samples/nuthatch-portrait-exif8.jpg; do
    name=$(basename "${photo%.*}")
    "$bin" palette "$photo" > "$out/$name.native.txt"
    qemu-x86_64 -cpu Nehalem "$bin" palette "$photo" > "$out/$name.nehalem.txt"
    "$bin" sticker "$photo" -o "$out/$name.native.png" --mask "$out/$name.native.mask.png"
    qemu-x86_64 -cpu Nehalem "$bin" sticker "$photo" -o "$out/$name.nehalem.png" --mask "$out/$name.nehalem.mask.png"
    palette=$(cmp -s "$out/$name.native.txt" "$out/$name.nehalem.txt" && echo identical || echo DIFFERENT)
    sticker=$(cmp -s "$out/$name.native.png" "$out/$name.nehalem.png" && echo identical || echo different)
    mask=$(cmp -s "$out/$name.native.mask.png" "$out/$name.nehalem.mask.png" && echo identical || echo different)
    echo "$photo: palette $palette, sticker PNG $sticker, mask PNG $mask"
    [ "$palette" = identical ] || status=1
    if [ "$mask" != identical ]; then
        python3 - "$out/$name.native.mask.png" "$out/$name.nehalem.mask.png" "$out/$name.native.png" "$out/$name.nehalem.png" <<'PY'
import sys
import numpy as np
from PIL import Image
a, b = (np.asarray(Image.open(p), dtype=np.int16) for p in sys.argv[1:3])
s, t = (np.asarray(Image.open(p).convert("RGBA"), dtype=np.int16) for p in sys.argv[3:5])
if a.shape != b.shape or s.shape != t.shape:
    print(f"  sizes differ: mask {a.shape} vs {b.shape}, sticker {s.shape} vs {t.shape}")
    sys.exit(1)
d = np.abs(a - b)
print(f"  mask: largest difference {d.max()} of 255, {np.count_nonzero(d)} of {d.size} values differ; "
      f"sticker: largest channel difference {np.abs(s - t).max()}")
PY
    fi
done
exit $status
