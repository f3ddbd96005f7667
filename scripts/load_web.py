#!/usr/bin/env python3
"""Load test of `stickers serve`, on loopback only, bounded in clients, requests and time.

usage: load_web.py [--bin PATH] [--clients N] [--seconds S] [--max-requests N]

Starts the server itself (a free 127.0.0.1 port, a temporary library), then runs N client threads
for S seconds (at most --max-requests requests in all). Each client loops through what a person's
page does: upload a photo, read the state, start processing, listen to the server-sent events
until the batch is done, download its sticker and the pack, remove its photo. Alongside, a burst
opens more event streams and uploads at once than the server's limits allow, to check that the
server answers 429/503 with Retry-After instead of queueing without bound.

Prints throughput, p50/p99 latency per request kind, the status counts, errors (any 5xx other than
a 503 with Retry-After, any dropped connection) and the server's peak RSS, as a Markdown table.
Exits 1 if there was any error. Needs the cut-out model (`stickers model fetch`).
"""
import argparse
import http.client
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import defaultdict

import serve_process

ROOT = serve_process.ROOT
TIMEOUT = 120  # seconds for any one request: an upper bound for a busy machine, not a figure


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency = defaultdict(list)    # kind -> seconds
        self.statuses = defaultdict(lambda: defaultdict(int))
        self.errors = []
        self.refusals = defaultdict(int)   # "429 events" … with Retry-After
        self.requests = 0

    def record(self, kind, status, seconds, headers=None):
        with self.lock:
            self.requests += 1
            self.latency[kind].append(seconds)
            self.statuses[kind][status] += 1
            if status in (429, 503):
                if headers is None or not headers.get("retry-after"):
                    self.errors.append(f"{kind}: {status} without Retry-After")
                else:
                    self.refusals[f"{status} {kind}"] += 1
            elif status >= 500:
                self.errors.append(f"{kind}: HTTP {status}")

    def error(self, text):
        with self.lock:
            self.errors.append(text)


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Client:
    """One keep-alive connection to the server, timing each request."""

    def __init__(self, port, stats):
        self.port, self.stats = port, stats
        self.connection = None

    def request(self, kind, method, path, body=None, headers=None):
        start = time.perf_counter()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
            self.connection.request(method, path, body=body, headers=headers or {})
            response = self.connection.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.stats.error(f"{kind}: connection dropped ({type(error).__name__}: {error})")
            self.close()
            return None, None, None
        self.stats.record(kind, response.status, time.perf_counter() - start,
                          {k.lower(): v for k, v in response.getheaders()})
        return response.status, data, response

    def events(self, kind="events"):
        """Reads the event stream to its `done` event on a connection of its own."""
        start = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            connection.request("GET", "/api/stickers/events")
            response = connection.getresponse()
            headers = {k.lower(): v for k, v in response.getheaders()}
            if response.status != 200:
                response.read()
                self.stats.record(kind, response.status, time.perf_counter() - start, headers)
                return response.status
            done = False
            for line in response:
                if line.startswith(b"event: done"):
                    done = True
            if not done:
                self.stats.error(f"{kind}: the stream ended without a done event")
            self.stats.record(kind, 200, time.perf_counter() - start, headers)
            return 200
        except (OSError, http.client.HTTPException) as error:
            self.stats.error(f"{kind}: connection dropped ({type(error).__name__}: {error})")
            return None
        finally:
            connection.close()

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def client_loop(port, stats, photos, deadline, budget, index):
    client = Client(port, stats)
    turn = 0
    while time.monotonic() < deadline and budget.take(7):
        name, data = photos[(index + turn) % len(photos)]
        turn += 1
        status, body, _ = client.request("upload", "POST", f"/api/stickers/photos?name=c{index}-{turn}-{name}",
                                         data, {"Content-Type": "application/octet-stream"})
        if status != 201:
            time.sleep(0.5)  # refused (limit) or failed: back off as the page would
            continue
        mine = [p for p in json.loads(body)["photos"] if p["name"] == f"c{index}-{turn}-{os.path.splitext(name)[0]}"]
        # Another client's batch may be running: its photo then waits for the next one.
        for _ in range(5):
            client.request("process", "POST", "/api/stickers/process")
            client.events()
            status, body, _ = client.request("state", "GET", "/api/stickers")
            if status != 200 or not mine:
                break
            now = [p for p in json.loads(body)["photos"] if p["id"] == mine[0]["id"]]
            if not now or now[0]["status"] != "pending":
                break
        if mine:
            photo = mine[0]["id"]
            client.request("sticker", "GET", f"/api/stickers/photos/{photo}/sticker.png")
            client.request("pack", "GET", "/api/stickers/pack.zip")
            client.request("remove", "DELETE", f"/api/stickers/photos/{photo}")
    client.close()


def burst(port, stats, photos, streams, uploads):
    """More event streams and uploads at once than the limits allow: each answered, none queued."""
    # A batch must be running for streams to stay open: one more photo, then process.
    name, data = max(photos, key=lambda p: len(p[1]))
    starter = Client(port, stats)
    starter.request("upload", "POST", f"/api/stickers/photos?name=burst-start-{name}", data,
                    {"Content-Type": "application/octet-stream"})
    starter.request("process", "POST", "/api/stickers/process")
    starter.close()
    threads = [threading.Thread(target=lambda: Client(port, stats).events("burst events")) for _ in range(streams)]
    accepted = []

    def upload(k):
        c = Client(port, stats)
        status, body, _ = c.request("burst upload", "POST", f"/api/stickers/photos?name=burst-{k}-{name}", data,
                                    {"Content-Type": "application/octet-stream"})
        if status == 201:
            accepted.extend(p["id"] for p in json.loads(body)["photos"] if p["name"].startswith(f"burst-{k}-"))
        c.close()
    threads += [threading.Thread(target=upload, args=(k,)) for k in range(uploads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # The accepted burst photos are not processed: only their arrival was under test.
    remover = Client(port, stats)
    for photo in accepted:
        remover.request("remove", "DELETE", f"/api/stickers/photos/{photo}")
    remover.close()


class Budget:
    def __init__(self, limit):
        self.left, self.lock = limit, threading.Lock()

    def take(self, n):
        with self.lock:
            if self.left < n:
                return False
            self.left -= n
            return True


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", help="the stickers executable (default: swift build's)")
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--max-requests", type=int, default=2000)
    args = parser.parse_args()
    args.clients = max(1, min(args.clients, 64))
    args.seconds = max(1, min(args.seconds, 600))

    binary = serve_process.stickers_binary(args.bin)

    photos = []
    for name in ("chelsea-cat.jpg", "coffee.png", "ladybird.jpg", "marigold.jpg", "rocket.jpg"):
        with open(os.path.join(ROOT, "Samples", name), "rb") as f:
            photos.append((name, f.read()))

    work = tempfile.mkdtemp(prefix="stickers-load-")
    os.makedirs(os.path.join(work, "library"))
    server, port, log = serve_process.start(binary, ["--library", os.path.join(work, "library")],
                                            os.path.join(work, "server.log"))
    try:
        stats = Stats()
        limits = json.loads(Client(port, stats).request("state", "GET", "/api/stickers")[1])["limits"]
        start = time.monotonic()
        deadline = start + args.seconds
        budget = Budget(args.max_requests)
        threads = [threading.Thread(target=client_loop, args=(port, stats, photos, deadline, budget, i))
                   for i in range(args.clients)]
        for t in threads:
            t.start()
        # While the clients run: a batch is going, so streams stay open; exceed both limits.
        time.sleep(min(5, args.seconds / 4))
        burst(port, stats, photos, streams=limits["maxEventStreams"] + 8, uploads=limits["maxConcurrentUploads"] + 8)
        for t in threads:
            t.join()
        elapsed = time.monotonic() - start
        rss = peak_rss_mb(server.pid)
    finally:
        serve_process.stop(server, log)
        shutil.rmtree(work, ignore_errors=True)

    print(f"clients {args.clients}, {elapsed:.1f} s, {stats.requests} requests, "
          f"{stats.requests / elapsed:.1f} requests/s, server peak RSS {rss:.0f} MB")
    print()
    print("| request | count | p50 ms | p99 ms | statuses |")
    print("|---|---:|---:|---:|---|")
    for kind in sorted(stats.latency):
        values = stats.latency[kind]
        statuses = ", ".join(f"{s}×{n}" for s, n in sorted(stats.statuses[kind].items()))
        print(f"| {kind} | {len(values)} | {percentile(values, 50) * 1000:.0f} | "
              f"{percentile(values, 99) * 1000:.0f} | {statuses} |")
    print()
    print("refused with Retry-After: " + (", ".join(f"{k} ×{n}" for k, n in sorted(stats.refusals.items())) or "none"))
    print(f"errors: {len(stats.errors)}")
    for error in stats.errors[:20]:
        print("  " + error)
    sys.exit(1 if stats.errors else 0)


if __name__ == "__main__":
    main()
