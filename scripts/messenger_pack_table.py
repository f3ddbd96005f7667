#!/usr/bin/env python3
"""The size/quality table of a messenger pack for docs/benchmarks.md, from `stickers make --for … --json`:

    swift run -c release stickers make Samples --for whatsapp -o /tmp/s.wastickers --json | python3 scripts/messenger_pack_table.py
"""
import json
import statistics
import sys

report = json.load(sys.stdin)
pack = report["pack"]
limit = {"whatsapp": 100 * 1024 - 1, "telegram": 512 * 1024, "signal": 300 * 1024}[pack["platform"]]
rows = [s for p in pack["packs"] for s in p["stickers"]]
print(f"| sticker | size | bytes | % of limit | encoding | quality | scale | ms (wall) | ms (CPU) |")
print(f"|---|---|---:|---:|---|---:|---:|---:|---:|")
for s in rows:
    quality = "—" if s.get("quality") is None else s["quality"]
    print(f"| {s['name']} | {s['width']}×{s['height']} | {s['bytes']:,} | {100 * s['bytes'] / limit:.0f} % | {s['encoding']} | {quality} | {s['scale']:g} | {s['milliseconds']:.0f} | {s['cpuMilliseconds']:.0f} |")
ms = [s["milliseconds"] for s in rows]
cpu = [s["cpuMilliseconds"] for s in rows]
fits = all(s["bytes"] <= limit for s in rows)
print(f"\n{len(rows)} stickers, all under {limit:,} bytes: {'yes' if fits else 'NO'}; "
      f"time per sticker median {statistics.median(ms):.0f} ms wall ({statistics.median(cpu):.0f} ms CPU), "
      f"max {max(ms):.0f} ms wall ({max(cpu):.0f} ms CPU); photos skipped: {len(report.get('invalid', []))}")
