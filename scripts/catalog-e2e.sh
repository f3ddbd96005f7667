#!/usr/bin/env bash
# End-to-end check of `stickers catalog` against the fake APOD server, without the internet.
#
#     swift build --product stickers --product fake-apod && scripts/catalog-e2e.sh [BIN_DIR]
#
# BIN_DIR defaults to .build/debug. Starts fake-apod on a free port, checks listing, saving
# (standard and HD), --json, a day and a range (with a day the server fails), the exit statuses of
# the failure cases, then stops the server.
set -euo pipefail

bin="${1:-.build/debug}"
work="$(mktemp -d)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"$bin/fake-apod" --port 0 --failing-day 2024-01-03 >"$work/server.out" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
    grep -q '^fake APOD server: ' "$work/server.out" && break
    sleep 0.1
done
api="$(sed -n 's/^fake APOD server: //p' "$work/server.out")"
[[ -n "$api" ]] || { echo "fake-apod did not start"; cat "$work/server.out"; exit 1; }
echo "fake APOD server at $api"

failures=0
check() { # check NAME EXPECTED_STATUS COMMAND...
    local name="$1" expected="$2"; shift 2
    local status=0
    "$@" >"$work/out" 2>"$work/err" || status=$?
    if [[ "$status" == "$expected" ]]; then
        echo "ok   $name (exit $status)"
    else
        echo "FAIL $name: exit $status, expected $expected"; cat "$work/out" "$work/err"; failures=$((failures + 1))
    fi
}

stickers="$bin/stickers"
check "list 4 photos" 0 "$stickers" catalog --api "$api" --count 4
[[ "$(grep -c '^2024-01-0' "$work/out")" == 4 ]] || { echo "FAIL expected 4 photos"; failures=$((failures + 1)); }

check "save 4 photos (3 images + 1 video thumbnail)" 0 "$stickers" catalog --api "$api" --count 4 --save "$work/library"
[[ "$(ls "$work/library" | wc -l)" == 4 ]] || { echo "FAIL expected 4 files"; ls -la "$work/library"; failures=$((failures + 1)); }
[[ -z "$(ls -A "$work/library" | grep '^\.' || true)" ]] || { echo "FAIL temporary files left"; failures=$((failures + 1)); }

check "save HD as JSON" 0 "$stickers" catalog --api "$api" --count 2 --save "$work/library" --hd --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [p["saved"].endswith("-hd.jpg") for p in d["photos"]] == [True, True], d' "$work/out" \
    || { echo "FAIL JSON"; failures=$((failures + 1)); }

check "one chosen day" 0 "$stickers" catalog --api "$api" --date 2001-09-09
[[ "$(grep -c '^2001-09-09  ' "$work/out")" == 1 ]] || { echo "FAIL expected the day's photo"; failures=$((failures + 1)); }

check "a range with a failing day: the others listed, exit 0" 0 "$stickers" catalog --api "$api" --start 2024-01-01 --end 2024-01-05 --thumbs
[[ "$(grep -c '^2024-01-0[1245]  ' "$work/out")" == 4 ]] || { echo "FAIL expected 4 days listed"; failures=$((failures + 1)); }
grep -q 'skipped 2024-01-03' "$work/err" || { echo "FAIL the failing day is not reported"; failures=$((failures + 1)); }
grep -q '^    thumbnail ' "$work/out" || { echo "FAIL --thumbs lists no thumbnail"; failures=$((failures + 1)); }

check "a range as JSON names the failing day" 0 "$stickers" catalog --api "$api" --start 2024-01-01 --end 2024-01-05 --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [p["date"] for p in d["photos"]] == ["2024-01-01","2024-01-02","2024-01-04","2024-01-05"] and [f["date"] for f in d["failed_days"]] == ["2024-01-03"], d' "$work/out" \
    || { echo "FAIL range JSON"; failures=$((failures + 1)); }

check "a day before APOD began: 64" 64 "$stickers" catalog --api "$api" --date 1995-06-15
grep -q '1995-06-16' "$work/err" || { echo "FAIL the message names no allowed range"; failures=$((failures + 1)); }
check "a day in the future: 64" 64 "$stickers" catalog --api "$api" --date 2999-01-01
check "not a day: 64" 64 "$stickers" catalog --api "$api" --start 2024-1-1
check "a range ending before it starts: 64" 64 "$stickers" catalog --api "$api" --start 2024-01-05 --end 2024-01-01

check "nothing listens: fails fast with 74" 74 "$stickers" catalog --api "http://127.0.0.1:1/planetary/apod"
check "rate limited: 69" 69 "$stickers" catalog --api "$api" --api-key fake-429
check "invalid key: 69" 69 "$stickers" catalog --api "$api" --api-key fake-403
check "malformed answer: 65" 65 "$stickers" catalog --api "$api" --api-key fake-malformed
check "count out of range: 64" 64 "$stickers" catalog --api "$api" --count 101
check "save into a file: 74" 74 "$stickers" catalog --api "$api" --save "$work/server.out"

if (( failures > 0 )); then echo "$failures check(s) failed"; exit 1; fi
echo "all catalog checks passed"
