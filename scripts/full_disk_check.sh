#!/usr/bin/env bash
# A full disk while `make` writes a cache entry, and while it writes a pack (issue 24): each must
# exit 74 naming the cause, leave no partial file, and leave a previous pack intact. Uses a real
# 3 MB tmpfs (needs root: mount). Prints one line per check; exits 1 on any failure.
# Usage: scripts/full_disk_check.sh [BIN]   (default: .build/debug/stickers)
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.build/debug/stickers}"
work="$(mktemp -d /tmp/stickers-full-disk.XXXXXX)"
tiny="$work/tiny"
mkdir -p "$tiny"
mount -t tmpfs -o size=3m tmpfs "$tiny" || { echo "skipped: cannot mount a tmpfs (needs root)"; exit 0; }
trap 'umount "$tiny" 2>/dev/null; rm -rf "$work"' EXIT
failures=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi; }

# 1. The cache on the full disk: the first entries fill it (a 20 MP photo's PNGs alone exceed 3 MB).
"$bin" make Samples -o "$work/pack.zip" --cache-dir "$tiny/cache" >"$work/out1" 2>"$work/err1"
status=$?
check "a full cache disk exits 74 (got $status)" '[ $status -eq 74 ]'
check "the message names the cause: $(tail -1 "$work/err1")" 'grep -qi "no space left on device" "$work/err1"'
check "no pack was written" '[ ! -e "$work/pack.zip" ]'
check "no partial cache entry is left" '[ -z "$(find "$tiny/cache" -name ".partial-*" 2>/dev/null)" ]'
rm -rf "$tiny/cache"

# 2. The pack on the full disk, over a previous pack that must survive.
"$bin" make Samples/chelsea-cat.jpg -o "$tiny/pack.zip" --cache-dir "$work/cache" >/dev/null 2>&1
previous="$(sha256sum "$tiny/pack.zip" | cut -d' ' -f1)"
"$bin" make Samples -o "$tiny/pack.zip" --cache-dir "$work/cache" >"$work/out2" 2>"$work/err2"
status=$?
check "a full pack disk exits 74 (got $status)" '[ $status -eq 74 ]'
check "the message names the cause: $(tail -1 "$work/err2")" 'grep -qi "no space left on device" "$work/err2"'
check "the previous pack is intact" '[ "$(sha256sum "$tiny/pack.zip" | cut -d" " -f1)" = "$previous" ]'
check "no partial pack is left" '[ -z "$(find "$tiny" -name "*.partial")" ]'
# The cache it filled meanwhile is whole: a rerun to a roomy disk takes every photo from it.
"$bin" make Samples -o "$work/pack2.zip" --cache-dir "$work/cache" --json >"$work/out3" 2>/dev/null
check "the cache is consistent afterwards (rerun from cache: $(python3 -c "import json;print(json.load(open('$work/out3'))['fromCache'])"))" \
    'python3 -c "import json,sys; r=json.load(open(\"$work/out3\")); sys.exit(0 if r[\"fromCache\"] == len(r[\"stickers\"]) else 1)"'

echo "$failures failed"
[ $failures -eq 0 ]
