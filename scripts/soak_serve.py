#!/usr/bin/env python3
"""Soak test of `stickers serve`: an hour of mixed use compressed into minutes, on loopback only,
bounded in time and requests, reporting the server's memory and open file descriptors over time.

usage: soak_serve.py [--bin PATH] [--seconds S] [--max-requests N] [--clients N] [--sample S]
                     [--env NAME=VALUE ...]

Starts the server itself (127.0.0.1, a free port, a library and a cache of its own), then N client
threads loop through what people do with the page, each turn with a new photo (a sample's bytes
with a different trailer: new content, so new cache entries and library files, as a new photo
would): upload, process while listening to the event stream, restyle its sticker, take its
colours (the Colours tab on that sticker, then extractions of 3…10 colours and a mood), download
the pack (ZIP, sometimes a WhatsApp pack), open an event stream and drop it after its first
event, and now and then remove photos so the tab stays under its limit. Alongside, RSS (VmRSS),
peak RSS (VmHWM) and open descriptors (/proc/PID/fd) are sampled every --sample seconds.

Prints a Markdown table of the samples and a summary: RSS and descriptors after warm-up (the first
fifth of the run) and at the end, the requests made, and any error (a 5xx, a dropped connection).
`--env MALLOC_MMAP_THRESHOLD_=2097152` runs the server with glibc's allocator tuned as `make` is
(see docs/benchmarks.md), for a comparison on one build. Exits 1 on any error. Needs the model.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter

import serve_process

ROOT = serve_process.ROOT
TIMEOUT = 300  # seconds for one request: an upper bound on a busy machine, not a figure
SAMPLES = ("chelsea-cat.jpg", "coffee.png", "ladybird.jpg", "marigold.jpg", "rocket.jpg")


class Run:
    def __init__(self, port, max_requests):
        self.port = port
        self.lock = threading.Lock()
        self.left = max_requests
        self.requests = Counter()
        self.statuses = Counter()
        self.errors = []
        self.counter = 0

    def take(self):
        with self.lock:
            if self.left <= 0:
                return False
            self.left -= 1
            return True

    def next_number(self):
        with self.lock:
            self.counter += 1
            return self.counter

    def record(self, kind, status):
        with self.lock:
            self.requests[kind] += 1
            self.statuses[status] += 1
            if status >= 500 and status != 503:
                self.errors.append(f"{kind}: HTTP {status}")

    def error(self, text):
        with self.lock:
            self.errors.append(text)


class Client:
    def __init__(self, run):
        self.run = run
        self.connection = None

    def request(self, kind, method, path, body=None, headers=None):
        if not self.run.take():
            return None, None
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.run.port, timeout=TIMEOUT)
            self.connection.request(method, path, body=body, headers=headers or {})
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.run.error(f"{kind}: connection dropped ({type(error).__name__}: {error})")
            self.close()
            return None, None
        self.run.record(kind, response.status)
        return response.status, data

    def events(self, until_done):
        """An event stream on a connection of its own: read to `done`, or dropped after one event."""
        if not self.run.take():
            return
        connection = http.client.HTTPConnection("127.0.0.1", self.run.port, timeout=TIMEOUT)
        try:
            connection.request("GET", "/api/stickers/events")
            response = connection.getresponse()
            self.run.record("events" if until_done else "events dropped", response.status)
            if response.status != 200:
                response.read()
                return
            for line in response:
                if line.startswith(b"event: done") or (not until_done and line.startswith(b"event:")):
                    break
        except (OSError, http.client.HTTPException) as error:
            self.run.error(f"events: connection dropped ({type(error).__name__}: {error})")
        finally:
            connection.close()  # dropped as a closed tab drops it

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def turn(client, run, photos, rng):
    number = run.next_number()
    name, data = photos[number % len(photos)]
    # New content each turn: the photo's bytes plus a trailer every decoder ignores.
    body = data + f"soak-{number}".encode()
    base = os.path.splitext(name)[0]
    status, answer = client.request("upload", "POST", f"/api/stickers/photos?name=soak{number}-{name}", body,
                                    {"Content-Type": "application/octet-stream"})
    if status != 201:
        time.sleep(0.5)
        return
    mine = [p["id"] for p in json.loads(answer)["photos"] if p["name"] == f"soak{number}-{base}"]
    if not mine:
        return
    photo = mine[0]
    for _ in range(5):  # another client's batch may be running: then the next batch makes it
        client.request("process", "POST", "/api/stickers/process")
        client.events(until_done=True)
        status, answer = client.request("state", "GET", "/api/stickers")
        if status != 200:
            return
        now = [p for p in json.loads(answer)["photos"] if p["id"] == photo]
        if not now or now[0]["status"] != "pending":
            break
    client.request("sticker", "GET", f"/api/stickers/photos/{photo}/sticker.png")
    style = {"outline": rng.choice([0, 6, 12, 24]), "outlineColor": rng.choice(["#FFFFFF", "#FF3366", "#FFD23F"]),
             "shadow": rng.random() < 0.5, "effect": rng.choice([None, "comic", "puffy"])}
    client.request("restyle", "PUT", f"/api/stickers/photos/{photo}/style", json.dumps(style).encode(),
                   {"Content-Type": "application/json"})
    client.request("gradient", "GET", f"/api/stickers/photos/{photo}/gradient.png")
    client.request("colours photo", "POST", f"/api/colors/photo?sticker={photo}")
    for _ in range(2):
        mood = rng.choice(["", "&mood=muted", "&mood=bright", "&mood=dark"])
        client.request("colours extract", "POST", f"/api/colors/extract?count={rng.randint(3, 10)}{mood}")
    client.request("colours export", "GET", f"/api/colors/export?format={rng.choice(['json', 'css', 'gpl'])}")
    client.events(until_done=False)
    if number % 4 == 0:
        client.request("pack whatsapp", "GET", "/api/stickers/pack/whatsapp")
    else:
        client.request("pack zip", "GET", "/api/stickers/pack.zip")
    if number % 3 == 0:
        client.request("remove", "DELETE", f"/api/stickers/photos/{photo}")
    if number % 25 == 0:  # the tab emptied now and then, as a person starts over
        client.request("remove all", "DELETE", "/api/stickers/photos")


def client_loop(run, photos, deadline, seed):
    rng = random.Random(seed)
    client = Client(run)
    while time.monotonic() < deadline and run.left > 0:
        turn(client, run, photos, rng)
    client.close()


def proc_status(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) / 1024
    values["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    return values


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", help="the stickers executable (default: swift build's)")
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--max-requests", type=int, default=20000)
    parser.add_argument("--clients", type=int, default=3)
    parser.add_argument("--sample", type=float, default=10)
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server's environment")
    args = parser.parse_args()
    args.seconds = max(10, min(args.seconds, 3600))
    args.clients = max(1, min(args.clients, 16))

    binary = serve_process.stickers_binary(args.bin)
    model = subprocess.run([binary, "model", "fetch"], capture_output=True, text=True)
    if model.returncode != 0:
        sys.exit("the cut-out model cannot be had: " + model.stderr)

    photos = []
    for name in SAMPLES:
        with open(os.path.join(ROOT, "Samples", name), "rb") as f:
            photos.append((name, f.read()))

    work = tempfile.mkdtemp(prefix="stickers-soak-")
    env = dict(os.environ, STICKERS_MODEL=model.stdout.strip().splitlines()[-1], TMPDIR=work)
    for item in args.env:
        key, _, value = item.partition("=")
        env[key] = value
    server, port, log = serve_process.start(
        binary, ["--data-dir", os.path.join(work, "library"), "--cache-dir", os.path.join(work, "cache")],
        os.path.join(work, "server.log"), env)
    samples = []
    try:
        run = Run(port, args.max_requests)
        start = time.monotonic()
        deadline = start + args.seconds
        threads = [threading.Thread(target=client_loop, args=(run, photos, deadline, seed)) for seed in range(args.clients)]
        samples.append((0.0, 0, proc_status(server.pid)))
        for t in threads:
            t.start()
        while time.monotonic() < deadline and any(t.is_alive() for t in threads):
            time.sleep(min(args.sample, max(0.1, deadline - time.monotonic())))
            samples.append((time.monotonic() - start, sum(run.requests.values()), proc_status(server.pid)))
        for t in threads:
            t.join()
        elapsed = time.monotonic() - start
        time.sleep(1)  # idle: what is still held once every request has ended
        samples.append((time.monotonic() - start, sum(run.requests.values()), proc_status(server.pid)))
    finally:
        serve_process.stop(server, log)
        shutil.rmtree(work, ignore_errors=True)

    print(f"{args.clients} clients, {elapsed:.0f} s, {sum(run.requests.values())} requests "
          f"({run.counter} photos), server environment: {' '.join(args.env) or 'default'}")
    print()
    print("| s | requests | RSS MB | peak RSS MB | open fds |")
    print("|---:|---:|---:|---:|---:|")
    for seconds, requests, status in samples:
        print(f"| {seconds:.0f} | {requests} | {status['VmRSS']:.0f} | {status['VmHWM']:.0f} | {status['fds']} |")
    warm = next((s for s in samples if s[0] >= elapsed / 5), samples[-1])
    end = samples[-1]
    print()
    print(f"after warm-up ({warm[0]:.0f} s): RSS {warm[2]['VmRSS']:.0f} MB, {warm[2]['fds']} fds; "
          f"at the end ({end[0]:.0f} s): RSS {end[2]['VmRSS']:.0f} MB, {end[2]['fds']} fds, peak {end[2]['VmHWM']:.0f} MB")
    print("requests: " + ", ".join(f"{k} ×{n}" for k, n in sorted(run.requests.items())))
    print("statuses: " + ", ".join(f"{k} ×{n}" for k, n in sorted(run.statuses.items())))
    print(f"errors: {len(run.errors)}")
    for error in run.errors[:20]:
        print("  " + error)
    sys.exit(1 if run.errors else 0)


if __name__ == "__main__":
    main()
