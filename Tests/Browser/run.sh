#!/usr/bin/env bash
# Browser tests of the web app: builds `stickers`, serves it on 127.0.0.1 (a free port chosen by
# the server itself, --port 0) over a temporary library, runs the Selenium tests in headless
# Chromium, and stops the server. Installs Chromium, its driver and Selenium if they are missing.
# Prints "N passed, N failed" and exits non-zero on any failure.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    echo "browser tests: installing chromium and chromium-driver" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
if ! python3 -c "import selenium" 2>/dev/null; then
    echo "browser tests: installing selenium" >&2
    python3 -m pip install -q "selenium>=4.51,<5"
fi
# The editor's test reads the served stickers' pixels.
if ! python3 -c "import PIL" 2>/dev/null; then
    echo "browser tests: installing Pillow" >&2
    python3 -m pip install -q "Pillow>=10"
fi

# The same build plan as `swift test` (which CI runs first), so this is a no-op there.
swift build --build-tests
bin_dir="$(swift build --show-bin-path)"

work="$(mktemp -d)"
server_pid=""
apod_pid=""
cleanup() {
    for pid in "$server_pid" "$apod_pid"; do
        if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
            kill -TERM "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$work"
}
trap cleanup EXIT

# The library: the test's own fixtures (a real photo and a corrupt one), copied so nothing of the
# repository is touched.
mkdir -p "$work/library"
python3 "$here/fixtures.py" "$work/library" "$work/uploads"
# A real sample photo and a real truncated one for the upload test, when the Samples are there.
cp Samples/chelsea-cat.jpg "$work/uploads/cat.jpg" 2>/dev/null || cp "$work/uploads/sunset.png" "$work/uploads/cat.jpg"
cp Samples/invalid/ladybird-truncated.jpg "$work/uploads/truncated.jpg" 2>/dev/null || true
# Several real photos for the carousel (the 20 MP one left out: slow in a debug build).
for sample in astronaut-portrait-exif6.jpg chelsea-cat.jpg coffee.png ladybird.jpg marigold.jpg rocket.jpg; do
    cp "Samples/$sample" "$work/uploads/sample-$sample" 2>/dev/null || true
done

# A clip for the clip test: a red disc moving over a grey ground, 1 s (ffmpeg, as CI installs it).
if command -v ffmpeg >/dev/null; then
    ffmpeg -v error -y -f lavfi -i "color=c=gray:s=160x120:r=15:d=1" \
        -vf "geq=r='if(lt(hypot(X-(20+T*90),Y-60),22),230,110+X/8)':g='if(lt(hypot(X-(20+T*90),Y-60),22),30,110+X/8)':b='if(lt(hypot(X-(20+T*90),Y-60),22),30,110+X/8)'" \
        -c:v libx264 -pix_fmt yuv420p -crf 18 "$work/uploads/disc.mp4"
fi

# wait_for_line LOG SED_EXPRESSION PID: prints the first match once the process has written it.
wait_for_line() {
    local found=""
    for _ in $(seq 1 300); do
        found="$(sed -n "$2" "$1" | head -n 1)"
        if [ -n "$found" ]; then echo "$found"; return 0; fi
        kill -0 "$3" 2>/dev/null || break
        sleep 0.1
    done
    cat "$1" >&2
    return 1
}

# The Space tab talks to the project's fake APOD server, never to the internet.
"$bin_dir/fake-apod" --port 0 --failing-day 2024-01-03 >"$work/apod.log" 2>&1 &
apod_pid=$!
apod_url="$(wait_for_line "$work/apod.log" 's/^fake APOD server: \(http:[^ ]*\)$/\1/p' "$apod_pid")" \
    || { echo "0 passed, 1 failed"; exit 1; }

"$bin_dir/stickers" serve --preview --photos "$work/library" --data-dir "$work/data" --cache-dir "$work/cache" --host 127.0.0.1 --port 0 \
    --catalog-api "$apod_url" --catalog-api-key browser-tests >"$work/server.log" 2>&1 &
server_pid=$!
url="$(wait_for_line "$work/server.log" 's/^Serving on \(http:[^ ]*\)$/\1/p' "$server_pid")" \
    || { echo "0 passed, 1 failed"; exit 1; }
echo "browser tests: server at $url, space photos from $apod_url" >&2

status=0
python3 "$here/test_web.py" "$url" "$work/uploads" "$root/docs" || status=$?
if [ "$status" -ne 0 ]; then
    echo "--- server log ---" >&2
    tail -n 50 "$work/server.log" >&2
fi
python3 "$here/test_clips.py" "$url" "$work/uploads" "$root/docs" || status=$?
# The library across a restart: its own servers (stopped with SIGINT) over their own library.
mkdir -p "$work/library-test"
python3 "$here/test_library.py" "$bin_dir/stickers" "$apod_url" "$work/uploads" "$work/library-test" || {
    status=1
    echo "--- library server log ---" >&2
    tail -n 50 "$work/library-test/library-server.log" >&2
}
# The sticker editor across a restart: its own servers over their own library.
mkdir -p "$work/editor-test"
python3 "$here/test_editor.py" "$bin_dir/stickers" "$apod_url" "$work/uploads" "$work/editor-test" || {
    status=1
    echo "--- editor server log ---" >&2
    tail -n 50 "$work/editor-test/library-server.log" >&2
}
exit "$status"
