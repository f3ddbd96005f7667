#!/usr/bin/env python3
"""How long `stickers serve` takes to stop on SIGTERM (or SIGINT): idle, busy, slow upload.

Each run starts `serve --port 0` on fresh temporary folders and puts it in one state — idle;
busy (photos uploaded, processing started, the first sticker made, a pack download started); or
a slow upload in flight (a 20 MB body trickling in at ~1 MB/s) — then sends the signal and times
the process's end. Printed per run, then the median and the maximum, with the exit statuses and,
for busy runs, how many photos finished before the signal a restart no longer shows.

    scripts/serve_stop_times.py [--runs 10] [--modes idle,busy,slow-upload] [--signal TERM|INT]
        [--engine MODEL] [--binary .build/debug/stickers] [--baseline OTHER_BINARY]

--baseline runs another build (e.g. main's) the same way in the same session, alternating, so the
two are compared under the same load. Loopback only; bounded in runs and in time (60 s a step).
"""
import argparse
import json
import os
import socket
import shutil
import signal
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTOS = ["chelsea-cat.jpg", "ladybird.jpg", "marigold.jpg", "rocket.jpg", "coffee.png",
          "nuthatch-portrait-exif8.jpg", "astronaut-portrait-exif6.jpg"]


def start(binary, folder, engine):
    args = [binary, "serve", "--port", "0", "--data-dir", f"{folder}/data", "--cache-dir", f"{folder}/cache"]
    env = dict(os.environ, TMPDIR=f"{folder}/tmp")
    if engine:
        env["STICKERS_MODEL"] = engine
    else:
        args.append("--preview")
        env.pop("STICKERS_MODEL", None)
    os.makedirs(f"{folder}/tmp", exist_ok=True)
    process = subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if line.startswith("Serving on "):
            return process, line.split()[-1]
        if not line and process.poll() is not None:
            break
    process.kill()
    raise SystemExit(f"{binary} did not start")


def request(url, method="GET", data=None, content_type=None, timeout=60):
    req = urllib.request.Request(url, data=data, method=method)
    if content_type:
        req.add_header("Content-Type", content_type)
    with urllib.request.urlopen(req, timeout=timeout) as response:
        return response.status, response.read()


def snapshot(base):
    return json.loads(request(f"{base}/api/stickers")[1])


def processed(state):
    return {p["name"] for p in state["photos"] if p["status"] == "processed"}


def make_busy(base):
    for name in PHOTOS:
        with open(os.path.join(ROOT, "Samples", name), "rb") as f:
            kind = "image/png" if name.endswith(".png") else "image/jpeg"
            request(f"{base}/api/stickers/photos?name={name}", "POST", f.read(), kind)
    request(f"{base}/api/stickers/process", "POST", b"")
    deadline = time.monotonic() + 600
    while not processed(snapshot(base)) and time.monotonic() < deadline:
        time.sleep(0.05)

    def download():
        try:
            request(f"{base}/api/stickers/pack.zip", timeout=30)
        except Exception:
            pass  # the server stopping may cut it: the timing is what is measured here
    threading.Thread(target=download, daemon=True).start()
    state = snapshot(base)
    return processed(state), state["isProcessing"]


def start_slow_upload(base):
    """A 20 MB upload whose body arrives at ~1 MB/s, sent from a thread until the server closes."""
    host, port = base.split("//")[1].split(":")
    size = 20_000_000

    def trickle():
        try:
            with socket.create_connection((host, int(port)), timeout=60) as sock:
                sock.sendall(f"POST /api/stickers/photos?name=slow HTTP/1.1\r\nHost: {host}:{port}\r\n"
                             f"Content-Type: image/jpeg\r\nContent-Length: {size}\r\n\r\n".encode())
                chunk = b"\xff" * 65536
                for _ in range(size // len(chunk)):
                    sock.sendall(chunk)
                    time.sleep(0.06)
        except OSError:
            pass  # closed by the stopping server
    threading.Thread(target=trickle, daemon=True).start()
    time.sleep(1)


def leftovers(folder):
    found = []
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            if name.endswith(".partial") or name.startswith(".partial-") or name.startswith("stickers-web-"):
                found.append(os.path.join(top, name))
    return found


def one_run(binary, mode, sig, engine):
    busy = mode == "busy"
    folder = tempfile.mkdtemp(prefix="serve-stop-")
    try:
        process, base = start(binary, folder, engine)
        made, processing = make_busy(base) if busy else (set(), False)
        if mode == "slow-upload":
            start_slow_upload(base)
        began = time.monotonic()
        process.send_signal(sig)
        try:
            status = process.wait(timeout=120)
        except subprocess.TimeoutExpired:
            process.kill()
            status = process.wait()
        seconds = time.monotonic() - began
        lost = 0
        if busy:
            again, base = start(binary, folder, engine)
            lost = len(made - processed(snapshot(base)))
            again.send_signal(signal.SIGTERM)
            again.wait(timeout=60)
        return seconds, status, processing, lost, len(leftovers(folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--baseline-runs", type=int, help="runs of the baseline (default: --runs)")
    parser.add_argument("--modes", default="idle,busy,slow-upload")
    parser.add_argument("--signal", choices=["TERM", "INT"], default="TERM")
    parser.add_argument("--engine", help="the cut-out model's path (default: the preview processor)")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/debug/stickers"))
    parser.add_argument("--baseline", help="another stickers binary, run alternately the same way")
    options = parser.parse_args()
    sig = signal.SIGTERM if options.signal == "TERM" else signal.SIGINT
    builds = [("ours", options.binary)] + ([("baseline", options.baseline)] if options.baseline else [])
    for mode in options.modes.split(","):
        busy = mode == "busy"
        results = {label: [] for label, _ in builds}
        for run in range(options.runs):
            for label, binary in builds:
                if label == "baseline" and run >= (options.baseline_runs or options.runs):
                    continue
                seconds, status, processing, lost, left = one_run(binary, mode, sig, options.engine)
                results[label].append((seconds, status, processing, lost, left))
                print(f"{mode} {label:8} run {run + 1:2}: {seconds:6.3f} s, exit {status}"
                      + (f", processing at signal: {processing}, finished photos lost: {lost}, temporaries left: {left}" if busy else ""),
                      flush=True)
        for label, rows in results.items():
            times = [r[0] for r in rows]
            print(f"== {mode} {label}: median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
                  f"exits {sorted({r[1] for r in rows})}, runs still processing at the signal {sum(r[2] for r in rows)}/{len(rows)}, "
                  f"finished photos lost {sum(r[3] for r in rows)}, temporaries left {sum(r[4] for r in rows)}", flush=True)


if __name__ == "__main__":
    main()
