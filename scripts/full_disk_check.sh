#!/usr/bin/env bash
# Every write path on a full disk and on a read-only file system (issue 25): the cache, the pack
# (zip and messenger), `sticker -o`, `palette -o` in every format, `catalog --save`, and the
# library database (serve's start). Each must exit 74 naming the cause ("no space left on
# device", "read-only file system"), leave no partial file, and leave a previous file intact; a
# later run with room must work. Real file systems: a small tmpfs filled to the last page, and a
# tmpfs remounted read-only (needs root: mount). Small inputs: one small photo, its cache entry
# made once. Prints one line per check; exits 1 on any failure.
# Usage: scripts/full_disk_check.sh [BIN]   (default: .build/debug/stickers; fake-apod beside it)
# Under CI (CI set), not being able to mount is a failure; elsewhere the script skips, loudly.
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.build/debug/stickers}"
fake_apod="$(dirname "$bin")/fake-apod"
photo=Samples/chelsea-cat.jpg
started=$SECONDS
work="$(mktemp -d /tmp/stickers-full-disk.XXXXXX)"
full="$work/full"
ro="$work/ro"
mkdir -p "$full" "$ro"
# `make` records its packs in the library: a library of the script's own, never the user's.
export STICKERS_DATA_DIR="$work/data"
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
    umount "$full" 2>/dev/null
    umount "$ro" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
if ! mount -t tmpfs -o size=4m tmpfs "$full" 2>/dev/null || ! mount -t tmpfs -o size=8m tmpfs "$ro" 2>/dev/null; then
    if [ -n "${CI:-}" ]; then echo "FAIL cannot mount a tmpfs (CI runs as root: it must be able to)"; exit 1; fi
    echo "SKIPPED: cannot mount a tmpfs (needs root); nothing was checked"
    exit 0
fi
failures=0
checks=0
check() {
    checks=$((checks + 1))
    if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}
digest() { sha256sum "$1" 2>/dev/null | cut -d' ' -f1; }
# Fills the full tmpfs to its last page (tmpfs counts whole pages: nothing more fits).
fill() { dd if=/dev/zero of="$full/.filler" bs=64k 2>/dev/null; dd if=/dev/zero of="$full/.filler2" bs=4k 2>/dev/null; sync; }
room() { rm -f "$full/.filler" "$full/.filler2"; }
no_partial() { [ -z "$(find "$1" \( -name '*.partial' -o -name '.partial-*' \) 2>/dev/null)" ]; }
# run NAME CMD…: runs a stickers command, keeping its status and its standard error's last line.
run() {
    local name="$1"; shift
    "$@" >"$work/$name.out" 2>"$work/$name.err"
    status=$?
    said="$(tail -1 "$work/$name.err")"
}
# expect74 LABEL CAUSE NAME: the last run exited 74 and its standard error names CAUSE.
expect74() {
    local cause="$2" name="$3"
    check "$1: exit 74 (got $status)" '[ $status -eq 74 ]'
    check "$1: says \"$cause\": $said" 'grep -qi "$cause" "$work/$name.err"'
}
nospace="no space left on device"
readonly_fs="read-only file system"

# The photo's cache entry, made once on a roomy disk: every later `make` takes it from there.
"$bin" make "$photo" -o "$work/warm.zip" --cache-dir "$work/cache" >/dev/null 2>&1
check "warming the cache worked" '[ -s "$work/warm.zip" ]'
cp -a "$work/cache" "$ro/cache-warm"

# Previous files on the read-only disk, written while it still had room; then it becomes read-only.
"$bin" make "$photo" -o "$ro/pack.zip" --cache-dir "$work/cache" >/dev/null 2>&1
"$bin" sticker "$photo" -o "$ro/sticker.png" >/dev/null 2>&1
formats="text json css gpl ase aco procreate sketchpalette scss tailwind"
for format in $formats; do "$bin" palette "$photo" --format "$format" -o "$ro/palette.$format" >/dev/null 2>&1; done
mkdir -p "$ro/data"
"$bin" serve --preview --port 0 --data-dir "$ro/data" --cache-dir "$work/cache" >"$work/serve0.out" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q "Serving on" "$work/serve0.out" && break; sleep 0.1; done
kill "$server_pid"; wait "$server_pid" 2>/dev/null; server_pid=""
check "a library was made on the roomy disk" '[ -s "$ro/data/library.sqlite" ]'
# What a whole library has (integrity, every migration), to compare the full disk's against.
library_state() {
    python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('PRAGMA integrity_check').fetchone()[0], c.execute('SELECT count(*) FROM grdb_migrations').fetchone()[0])" "$1"
}
whole_library="$(library_state "$ro/data/library.sqlite")"
declare -A before
for file in "$ro"/pack.zip "$ro"/sticker.png "$ro"/palette.* "$ro"/data/library.sqlite; do before[$file]="$(digest "$file")"; done
mount -o remount,ro "$ro" || { echo "FAIL cannot remount read-only"; exit 1; }
intact_ro() { local f; for f in "${!before[@]}"; do [ "$(digest "$f")" = "${before[$f]}" ] || return 1; done; }

echo "== the processed-photo cache"
fill
run cache-full "$bin" make "$photo" -o "$work/p1.zip" --cache-dir "$full/cache"
expect74 "full cache disk" "$nospace" cache-full
check "full cache disk: no pack written" '[ ! -e "$work/p1.zip" ]'
check "full cache disk: no partial cache entry" 'no_partial "$full"'
room
run cache-again "$bin" make "$photo" -o "$work/p2.zip" --cache-dir "$full/cache"
check "with room again the same cache works (exit $status)" '[ $status -eq 0 ] && [ -s "$work/p2.zip" ]'
rm -rf "$full/cache"
run cache-ro "$bin" make "$photo" -o "$work/p3.zip" --cache-dir "$ro/cache"
expect74 "read-only cache folder" "$readonly_fs" cache-ro
check "read-only cache folder: no pack written" '[ ! -e "$work/p3.zip" ]'
run cache-ro-warm "$bin" make "$photo" -o "$work/p4.zip" --cache-dir "$ro/cache-warm" --json
check "a read-only cache that already holds the photo still serves it (exit $status)" \
    '[ $status -eq 0 ] && grep -q "\"fromCache\" : 1" "$work/cache-ro-warm.out"'

echo "== the pack (make -o, make --for)"
"$bin" make "$photo" -o "$full/pack.zip" --cache-dir "$work/cache" >/dev/null 2>&1
previous="$(digest "$full/pack.zip")"
fill
run pack-full "$bin" make "$photo" -o "$full/pack.zip" --cache-dir "$work/cache" --colors 6
expect74 "full pack disk" "$nospace" pack-full
check "full pack disk: the previous pack is intact" '[ "$(digest "$full/pack.zip")" = "$previous" ]'
check "full pack disk: no partial pack" 'no_partial "$full"'
run telegram-full "$bin" make "$photo" --for telegram -o "$full/set.zip" --cache-dir "$work/cache"
expect74 "full disk, telegram pack" "$nospace" telegram-full
check "full disk, telegram pack: nothing left" '[ ! -e "$full/set.zip" ] && no_partial "$full"'
room
run pack-ro "$bin" make "$photo" -o "$ro/pack.zip" --cache-dir "$work/cache" --colors 6
expect74 "read-only pack folder" "$readonly_fs" pack-ro
run telegram-ro "$bin" make "$photo" --for telegram -o "$ro/set.zip" --cache-dir "$work/cache"
expect74 "read-only folder, telegram pack" "$readonly_fs" telegram-ro

echo "== sticker -o"
"$bin" sticker "$photo" -o "$full/sticker.png" >/dev/null 2>&1
previous="$(digest "$full/sticker.png")"
fill
run sticker-full "$bin" sticker "$photo" -o "$full/sticker.png" --outline 20
expect74 "full disk, sticker" "$nospace" sticker-full
check "full disk, sticker: the previous sticker is intact, no partial" \
    '[ "$(digest "$full/sticker.png")" = "$previous" ] && no_partial "$full"'
room
run sticker-ro "$bin" sticker "$photo" -o "$ro/sticker.png" --outline 20
expect74 "read-only folder, sticker" "$readonly_fs" sticker-ro

echo "== palette -o, every format"
for format in $formats; do "$bin" palette "$photo" --format "$format" -o "$full/palette.$format" >/dev/null 2>&1; done
declare -A palettes
for format in $formats; do palettes[$format]="$(digest "$full/palette.$format")"; done
fill
full_ok=0; ro_ok=0; count=0
for format in $formats; do
    count=$((count + 1))
    run "palette-full-$format" "$bin" palette "$photo" -n 7 --format "$format" -o "$full/palette.$format"
    [ $status -eq 74 ] && grep -qi "$nospace" "$work/palette-full-$format.err" \
        && [ "$(digest "$full/palette.$format")" = "${palettes[$format]}" ] && full_ok=$((full_ok + 1))
    run "palette-ro-$format" "$bin" palette "$photo" -n 7 --format "$format" -o "$ro/palette.$format"
    [ $status -eq 74 ] && grep -qi "$readonly_fs" "$work/palette-ro-$format.err" && ro_ok=$((ro_ok + 1))
done
check "full disk, palette: $full_ok of $count formats exit 74 saying \"$nospace\", previous file intact ($(tail -1 "$work/palette-full-aco.err"))" \
    '[ $full_ok -eq $count ]'
check "read-only folder, palette: $ro_ok of $count formats exit 74 saying \"$readonly_fs\" ($(tail -1 "$work/palette-ro-aco.err"))" \
    '[ $ro_ok -eq $count ]'
check "full disk, palette: no partial" 'no_partial "$full"'
room

echo "== catalog --save (a local fake APOD server)"
if [ -x "$fake_apod" ]; then
    "$fake_apod" --port 0 >"$work/apod.out" 2>/dev/null &
    apod_pid=$!
    for _ in $(seq 100); do grep -q "http://" "$work/apod.out" && break; sleep 0.1; done
    api="$(grep -o 'http://[^ ]*' "$work/apod.out")"
    "$bin" catalog --count 1 --api "$api" --api-key test --save "$full/space" >/dev/null 2>&1
    saved="$(ls "$full/space")"
    previous="$(digest "$full/space/$saved")"
    fill
    run catalog-full "$bin" catalog --count 1 --api "$api" --api-key test --save "$full/space"
    check "full disk, catalog --save: exit 74 (got $status)" '[ $status -eq 74 ]'
    check "full disk, catalog --save: says \"$nospace\": $(grep -i "$nospace" "$work/catalog-full.err" | head -1)" \
        'grep -qi "$nospace" "$work/catalog-full.err"'
    check "full disk, catalog --save: the previous photo is intact, no partial" \
        '[ "$(digest "$full/space/$saved")" = "$previous" ] && no_partial "$full"'
    room
    run catalog-ro "$bin" catalog --count 1 --api "$api" --api-key test --save "$ro/space"
    expect74 "read-only folder, catalog --save" "$readonly_fs" catalog-ro
    kill "$apod_pid" 2>/dev/null; wait "$apod_pid" 2>/dev/null
else
    check "fake-apod is built beside $bin (swift build)" false
fi

echo "== the library database (serve's start)"
fill
run serve-full timeout 30 "$bin" serve --preview --port 0 --data-dir "$full/data" --cache-dir "$work/cache"
expect74 "full disk, new library" "$nospace" serve-full
room
"$bin" serve --preview --port 0 --data-dir "$full/data" --cache-dir "$work/cache" >"$work/serve2.out" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q "Serving on" "$work/serve2.out" && break; sleep 0.1; done
check "with room again the library opens and serves" 'grep -q "Serving on" "$work/serve2.out"'
kill "$server_pid"; wait "$server_pid" 2>/dev/null; server_pid=""
check "the library is whole: integrity ok, every migration applied ($whole_library)" \
    '[ "$(library_state "$full/data/library.sqlite")" = "$whole_library" ]'
run serve-ro timeout 30 "$bin" serve --preview --port 0 --data-dir "$ro/data" --cache-dir "$work/cache"
expect74 "read-only library" "$readonly_fs" serve-ro
run serve-ro-new timeout 30 "$bin" serve --preview --port 0 --data-dir "$ro/new-data" --cache-dir "$work/cache"
expect74 "read-only folder, new library" "$readonly_fs" serve-ro-new

check "every previous file on the read-only disk is intact" 'intact_ro'
echo "$failures of $checks checks failed ($((SECONDS - started)) s)"
[ $failures -eq 0 ]
