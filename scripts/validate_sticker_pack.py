#!/usr/bin/env python3
"""Checks sticker packs against WhatsApp's, Telegram's and Signal's published rules, independently of
the code that wrote them: the ZIPs read with Python's zipfile, every image decoded with Pillow
(its own libwebp). Used by the Swift tests (Tests/StickerKitTests/Pack) and by hand:

    python3 scripts/validate_sticker_pack.py whatsapp OUT.wastickers [OUT-2.wastickers …]

Prints one JSON object {"ok": bool, "errors": [...], "packs": [{"file", "stickers", ...}]} and exits
0 when every rule holds, 1 otherwise. Needs Pillow (pip install Pillow).

--fringe adds a heuristic edge check (semi-transparent pixels far in colour from the opaque ones
next to them), meant for the default white outline: a style whose edge is drawn in contrasting
colours on purpose (`--effect comic`'s ink line) trips it by design, with the source PNG alike.
"""
import io
import json
import sys
import unicodedata
import zipfile

from PIL import Image

RULES = {
    # WhatsApp: github.com/WhatsApp/stickers (README: sticker and tray icon requirements).
    "whatsapp": dict(exact=(512, 512), max_bytes=100 * 1024 - 1, count=(3, 30), margin=16),
    # Telegram: core.telegram.org/stickers (static stickers) and the Bot API's thumbnail rules.
    "telegram": dict(longer=512, max_bytes=512 * 1024, count=(1, 120)),
    # Signal: support.signal.org, "Sticker guidelines".
    "signal": dict(max_side=512, max_bytes=300 * 1024, count=(1, 200)),
}


def is_one_emoji(text):
    """One emoji: non-empty, no letters, digits, spaces or punctuation outside emoji sequences."""
    if not isinstance(text, str) or not text:
        return False
    base = [c for c in text if c not in "\u200d\ufe0f\ufe0e\u20e3" and not (0x1F3FB <= ord(c) <= 0x1F3FF)]
    if not base:
        return False
    for c in base:
        category = unicodedata.category(c)
        if category not in ("So", "Sk") and not (0x1F1E6 <= ord(c) <= 0x1F1FF):
            return False
    # Several pictographs without a joiner are several emoji (flags are two regional indicators).
    regional = [c for c in base if 0x1F1E6 <= ord(c) <= 0x1F1FF]
    if regional:
        return len(base) == 2 and len(regional) == 2
    return len(base) == 1 or "\u200d" in text


def fringe(img):
    """Mean colour distance between semi-transparent edge pixels and the opaque pixels near them.
    Transparent black (or any foreign colour) bled into the edge by lossy coding shows up here."""
    px = img.load()
    w, h = img.size
    total, count = 0.0, 0
    for y in range(0, h):
        for x in range(0, w):
            r, g, b, a = px[x, y]
            if not 24 <= a <= 231:
                continue
            near = []
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < w and 0 <= ny < h:
                        q = px[nx, ny]
                        if q[3] == 255:
                            near.append(q)
            if not near:
                continue
            mr = sum(q[0] for q in near) / len(near)
            mg = sum(q[1] for q in near) / len(near)
            mb = sum(q[2] for q in near) / len(near)
            total += max(abs(r - mr), abs(g - mg), abs(b - mb))
            count += 1
    return total / count if count else 0.0


def check_image(name, data, rules, errors, check_fringe):
    where = name
    if rules.get("max_bytes") and len(data) > rules["max_bytes"]:
        errors.append(f"{where}: {len(data)} bytes, over {rules['max_bytes']}")
    if name.endswith(".webp") and not (data[:4] == b"RIFF" and data[8:12] == b"WEBP"):
        errors.append(f"{where}: not a RIFF/WEBP file")
    try:
        img = Image.open(io.BytesIO(data))
        img.load()
    except Exception as error:  # noqa: BLE001 — any decode failure is a rule broken
        errors.append(f"{where}: cannot be decoded ({error})")
        return None
    if getattr(img, "is_animated", False):
        errors.append(f"{where}: animated")
    w, h = img.size
    if "exact" in rules and (w, h) != rules["exact"]:
        errors.append(f"{where}: {w}×{h}, must be exactly {rules['exact'][0]}×{rules['exact'][1]}")
    if "longer" in rules and (max(w, h) != rules["longer"] or min(w, h) > rules["longer"]):
        errors.append(f"{where}: {w}×{h}, one side must be exactly {rules['longer']} and the other at most")
    if "max_side" in rules and max(w, h) > rules["max_side"]:
        errors.append(f"{where}: {w}×{h}, larger than {rules['max_side']}×{rules['max_side']}")
    rgba = img.convert("RGBA")
    alpha = rgba.getchannel("A")
    lo, hi = alpha.getextrema()
    if lo != 0:
        errors.append(f"{where}: no transparent background (minimum alpha {lo})")
    if hi == 0:
        errors.append(f"{where}: entirely transparent")
    corners = [alpha.getpixel(p) for p in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)]]
    if any(corners):
        errors.append(f"{where}: corners not transparent ({corners})")
    if "margin" in rules and hi > 0:
        left, top, right, bottom = alpha.getbbox()
        m = rules["margin"]
        if left < m or top < m or w - right < m or h - bottom < m:
            errors.append(f"{where}: subject within {m} px of the edge (box {left},{top},{right},{bottom})")
    result = {"file": name, "width": w, "height": h, "bytes": len(data)}
    if check_fringe:
        result["fringe"] = round(fringe(rgba), 1)
        if result["fringe"] > 48:
            errors.append(f"{where}: coloured edge fringe (mean distance {result['fringe']} from the opaque colour)")
    return result


def validate(platform, path, errors, check_fringe):
    rules = RULES[platform]
    pack = {"file": path, "stickers": []}
    try:
        archive = zipfile.ZipFile(path)
    except Exception as error:  # noqa: BLE001
        errors.append(f"{path}: not a ZIP ({error})")
        return pack
    names = [n for n in archive.namelist() if not n.endswith("/")]
    pack["entries"] = names
    stickers = []
    if platform == "whatsapp":
        stickers = sorted(n for n in names if n.endswith(".webp"))
        for text in ("title.txt", "author.txt"):
            if text not in names:
                errors.append(f"{path}: no {text}")
            else:
                value = archive.read(text).decode("utf-8")
                pack[text[:-4]] = value
                if not value.strip() or len(value) > 128:
                    errors.append(f"{path}: {text} empty or over 128 characters")
        trays = [n for n in names if n.endswith(".png")]
        if len(trays) != 1:
            errors.append(f"{path}: {len(trays)} tray icons (PNG), needs exactly 1")
        for tray in trays:
            data = archive.read(tray)
            if len(data) >= 50 * 1024:
                errors.append(f"{path}: tray icon {len(data)} bytes, must be under 50 KB")
            img = Image.open(io.BytesIO(data))
            if img.format != "PNG" or img.size != (96, 96):
                errors.append(f"{path}: tray icon {img.format} {img.size[0]}×{img.size[1]}, must be a 96×96 PNG")
        extra = [n for n in names if n not in stickers and n not in trays and n not in ("title.txt", "author.txt")]
        if extra:
            errors.append(f"{path}: unexpected entries {extra}")
    else:
        if "manifest.json" not in names:
            errors.append(f"{path}: no manifest.json")
            return pack
        manifest = json.loads(archive.read("manifest.json"))
        pack["manifest"] = manifest
        entries = manifest.get("stickers", [])
        stickers = [e.get("file") for e in entries]
        for entry in entries:
            if entry.get("file") not in names:
                errors.append(f"{path}: manifest names {entry.get('file')}, not in the archive")
            emoji = entry.get("emoji")
            if platform == "telegram":
                if not isinstance(emoji, list) or not emoji or not all(is_one_emoji(e) for e in emoji):
                    errors.append(f"{path}: {entry.get('file')}: emoji must be a non-empty list of emoji, got {emoji!r}")
            elif not is_one_emoji(emoji):
                errors.append(f"{path}: {entry.get('file')}: needs exactly one emoji, got {emoji!r}")
        if not manifest.get("title"):
            errors.append(f"{path}: manifest has no title")
        if platform == "telegram":
            thumb = manifest.get("thumbnail")
            if thumb not in names:
                errors.append(f"{path}: no thumbnail")
            else:
                img = Image.open(io.BytesIO(archive.read(thumb)))
                if img.size != (100, 100):
                    errors.append(f"{path}: thumbnail {img.size[0]}×{img.size[1]}, must be 100×100")
        if platform == "signal" and manifest.get("cover") not in names:
            errors.append(f"{path}: cover {manifest.get('cover')!r} not in the archive")
        stickers = [s for s in stickers if s in names]
    low, high = rules["count"]
    if not low <= len(stickers) <= high:
        errors.append(f"{path}: {len(stickers)} stickers, must be {low}…{high}")
    for name in stickers:
        result = check_image(name, archive.read(name), rules, errors, check_fringe)
        if result:
            pack["stickers"].append(result)
    return pack


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    check_fringe = "--fringe" in argv
    if len(args) < 2 or args[0] not in RULES:
        print("usage: validate_sticker_pack.py whatsapp|telegram|signal [--fringe] PACK…", file=sys.stderr)
        return 64
    errors = []
    packs = [validate(args[0], path, errors, check_fringe) for path in args[1:]]
    print(json.dumps({"ok": not errors, "errors": errors, "packs": packs}, ensure_ascii=False))
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
