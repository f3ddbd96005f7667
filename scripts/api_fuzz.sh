#!/usr/bin/env bash
# Fuzzes the live web API from its OpenAPI document with schemathesis (PyPI): no 5xx, every status,
# content type and body as documented. Starts its own `serve` (previews, so no model is needed;
# the routes and bodies are the engine's) on a free loopback port, with a library, cache and
# temporary folder of its own, and the fake APOD server behind the Space tab (a real service's
# outage would be a documented 502, but not_a_server_error counts every 5xx).
#
#   scripts/api_fuzz.sh [BIN_DIR]        (default .build/debug: stickers and fake-apod built)
#   EXAMPLES=25 (per operation)  SECONDS_LIMIT=240 (the whole run)  DOC=FILE (else the served one)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-.build/debug}")
examples=${EXAMPLES:-25}
limit=${SECONDS_LIMIT:-240}
version=4.32.5
if ! schemathesis --version 2>/dev/null | grep -q "$version"; then
    python3 -m pip install -q --disable-pip-version-check "schemathesis==$version" 2>&1 | grep -v 'as the .root. user' || true
fi

work=$(mktemp -d /tmp/stickers-api-fuzz.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/tmp"

wait_for() {  # FILE PATTERN: the first match of PATTERN in FILE, within 60 s
    for _ in $(seq 600); do
        if found=$(grep -oE "$2" "$1" 2>/dev/null | head -1) && [ -n "$found" ]; then echo "$found"; return 0; fi
        sleep 0.1
    done
    echo "timed out waiting for $2 in $1:" >&2; cat "$1" >&2; return 1
}

"$bin/fake-apod" --port 0 >"$work/apod.out" 2>&1 &
pids+=($!)
api=$(wait_for "$work/apod.out" 'http://[^ ]+/planetary/apod')
TMPDIR="$work/tmp" "$bin/stickers" serve --preview --port 0 --data-dir "$work/data" --cache-dir "$work/cache" \
    --catalog-api "$api" --catalog-api-key fuzz >"$work/serve.out" 2>&1 &
pids+=($!)
base=$(wait_for "$work/serve.out" 'http://127\.0\.0\.1:[0-9]+')
echo "serve at $base (Space tab: $api); $examples examples per operation, at most $limit s"

status=0
doc=$base/openapi.json  # the document the server serves (or DOC=FILE)
if [ -n "${DOC:-}" ]; then doc=$(realpath "$DOC"); fi
# Run in the work folder: schemathesis keeps a .schemathesis folder where it runs.
(cd "$work" && timeout "$limit" schemathesis run "$doc" --url "$base" -n "$examples" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    >"$work/schemathesis.out" 2>&1) || status=$?
grep -vE '^\s*$' "$work/schemathesis.out" | tail -200
if [ "$status" -eq 124 ]; then echo "schemathesis did not finish within $limit s"; fi
if ! kill -0 "${pids[1]}" 2>/dev/null; then echo "serve died:"; tail -20 "$work/serve.out"; status=1; fi
exit "$status"
