#!/usr/bin/env bash
# Screenshot of the web app's Stickers tab with the real engine over the Samples, for the README:
# serves Samples (copied to a temporary library) on a free loopback port, processes them through
# the HTTP API, and has headless Chromium take docs/web-stickers-engine.png.
# Needs the cut-out model (`stickers model fetch`) and chromium (apt-get install chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product stickers
bin="$(swift build --show-bin-path)/stickers"
work="$(mktemp -d)"
# The server's library: the run's own, never the user's.
export STICKERS_DATA_DIR="$work/data"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/library/invalid"
cp Samples/*.jpg Samples/*.png "$work/library/" 2>/dev/null || true
rm -f "$work/library/"*20mp*   # the 20 MP photo makes a slow debug-build demo; the tests cover it
cp Samples/invalid/* "$work/library/invalid/" 2>/dev/null || true
"$bin" serve --library "$work/library" --port 0 >"$work/server.log" 2>&1 &
pid=$!
for _ in $(seq 1 100); do
    url="$(sed -n 's/^Serving on \(http:[^ ]*\)$/\1/p' "$work/server.log" | head -n 1)"
    [ -n "$url" ] && break
    sleep 0.1
done
[ -n "${url:-}" ] || { cat "$work/server.log" >&2; exit 1; }
curl -sf -X POST "$url/api/stickers/library" >/dev/null
curl -sf -X POST "$url/api/stickers/process" >/dev/null
curl -sfN "$url/api/stickers/events" >/dev/null   # ends when the batch is done
mkdir -p docs
chromium --headless --no-sandbox --disable-gpu --window-size=1280,1000 --virtual-time-budget=20000 \
    --screenshot=docs/web-stickers-engine.png "$url/" 2>/dev/null
echo "wrote docs/web-stickers-engine.png"
