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

# The same build plan as `swift test` (which CI runs first), so this is a no-op there.
swift build --build-tests
bin="$(swift build --show-bin-path)/stickers"

work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# The library: the test's own fixtures (a real photo and a corrupt one), copied so nothing of the
# repository is touched.
mkdir -p "$work/library"
python3 "$here/fixtures.py" "$work/library" "$work/uploads"

"$bin" serve --preview --library "$work/library" --host 127.0.0.1 --port 0 >"$work/server.log" 2>&1 &
server_pid=$!
url=""
for _ in $(seq 1 100); do
    url="$(sed -n 's/^Serving on \(http:[^ ]*\)$/\1/p' "$work/server.log" | head -n 1)"
    [ -n "$url" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; echo "0 passed, 1 failed"; exit 1; }
    sleep 0.1
done
if [ -z "$url" ]; then cat "$work/server.log" >&2; echo "0 passed, 1 failed"; exit 1; fi
echo "browser tests: server at $url" >&2

status=0
python3 "$here/test_web.py" "$url" "$work/uploads" "$root/docs" || status=$?
if [ "$status" -ne 0 ]; then
    echo "--- server log ---" >&2
    tail -n 50 "$work/server.log" >&2
fi
exit "$status"
