#!/usr/bin/env python3
"""Times the web editor's requests against a live `stickers serve` (the real engine): brush strokes,
a caption, a restyle for comparison, and a click on background (a closer look, the network again),
each as the page sends it, beside processing the photo once. Prints medians and minima.

usage: scripts/bench_web_editor.py [--stickers BIN] [--photo FILE] [--runs N]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import serve_process  # noqa: E402


def request(base, method, path, body=None, content_type="application/json"):
    data = body if isinstance(body, (bytes, type(None))) else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": content_type} if data is not None else {})
    with urllib.request.urlopen(req, timeout=300) as response:
        return response.read()


def timed(function):
    start = time.perf_counter()
    function()
    return (time.perf_counter() - start) * 1000


def png_size(data):
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stickers", help="the stickers executable (default: swift build's)")
    parser.add_argument("--photo", default=os.path.join(serve_process.ROOT, "Samples", "chelsea-cat.jpg"))
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    binary = serve_process.stickers_binary(args.stickers)
    work = tempfile.mkdtemp(prefix="stickers-editor-bench-")
    server, port, log = serve_process.start(binary, ["--data-dir", os.path.join(work, "data"), "--cache-dir",
                                                     os.path.join(work, "cache")], os.path.join(work, "serve.log"))
    base = f"http://127.0.0.1:{port}"
    try:
        with open(args.photo, "rb") as f:
            snapshot = json.loads(request(base, "POST", "/api/stickers/photos?name=photo", f.read(), "application/octet-stream"))
        photo = snapshot["photos"][0]["id"]
        start = time.perf_counter()
        request(base, "POST", "/api/stickers/process")
        while True:
            state = json.loads(request(base, "GET", "/api/stickers"))
            if not state["isProcessing"]:
                break
            time.sleep(0.05)
        processing = (time.perf_counter() - start) * 1000
        status = state["photos"][0]["status"]
        if status != "processed":
            sys.exit(f"the photo was not processed: {state['photos'][0]}")
        width, height = png_size(request(base, "GET", f"/api/stickers/photos/{photo}/mask.png"))
        sticker = png_size(request(base, "GET", f"/api/stickers/photos/{photo}/sticker.png"))
        print(f"photo {os.path.basename(args.photo)}: cut-out {width}×{height}, sticker {sticker[0]}×{sticker[1]}; "
              f"processing (network and all, one request to done) {processing:.0f} ms")

        def strokes(run):
            """Three strokes as the page records them (a point every third of the brush): an erase
            across the left third, a restore inside it, an erase dot; moved by `run` so every
            request is a new variant."""
            r = max(4, width // 40)
            across = [[x, height // 3 + run] for x in range(0, width // 3, max(1, r // 3))]
            back = [[width // 6, y] for y in range(height // 3, 2 * height // 3, max(1, r // 3))]
            return {"width": width, "height": height, "strokes": [
                {"mode": "erase", "radius": r, "points": across},
                {"mode": "restore", "radius": r // 2, "points": back},
                {"mode": "erase", "radius": r, "points": [[width - r, run]]}]}

        path = f"/api/stickers/photos/{photo}"
        cases = [
            ("restyle (for comparison)", lambda run: request(base, "PUT", path + "/style", {"outline": 4 + run % 20})),
            ("brush strokes (3 strokes, %d points)" % sum(len(s["points"]) for s in strokes(0)["strokes"]),
             lambda run: request(base, "PUT", path + "/edits", strokes(run))),
            ("erase strokes only (the photo is not read)",
             lambda run: request(base, "PUT", path + "/edits",
                                 dict(strokes(run), strokes=[s for s in strokes(run)["strokes"] if s["mode"] == "erase"]))),
            ("caption, short", lambda run: request(base, "PUT", path + "/caption", {"text": f"Good morning {run}"})),
            ("caption, 190 characters", lambda run: request(base, "PUT", path + "/caption",
                                                            {"text": ("A long caption wraps onto lines " * 6)[:186] + f" {run:03d}"})),
        ]
        print(f"{'request (medians of %d, whole HTTP round trip)' % args.runs:<52} {'median':>9} {'min':>9}")
        for name, call in cases:
            times = [timed(lambda: call(run)) for run in range(args.runs)]
            print(f"{name:<52} {statistics.median(times):>7.0f} ms {min(times):>7.0f} ms")
        # A click on the photo's corner (background): the first look found nothing there, so the
        # network looks again, closer (or says nothing stands out there).
        looks, found = [], 0
        for run in range(3):
            point = [2 + run, 2 + run]
            start = time.perf_counter()
            try:
                request(base, "PUT", path + "/subjects", {"point": point})
                found += 1
            except urllib.error.HTTPError as error:
                if error.code != 422:
                    raise
            looks.append((time.perf_counter() - start) * 1000)
        print(f"{'click on background (closer look; found %d of %d)' % (found, len(looks)):<52} "
              f"{statistics.median(looks):>7.0f} ms {min(looks):>7.0f} ms")
    finally:
        serve_process.stop(server, log)


if __name__ == "__main__":
    main()
