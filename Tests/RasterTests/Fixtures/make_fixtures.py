#!/usr/bin/env python3
"""Writes the small committed test fixtures. Run from this folder: python3 make_fixtures.py

PNGs come from the minimal writer below (Pillow cannot write 16-bit colour or Adam7), so every
colour type, bit depth, tRNS form and interlacing is covered. Pixel values follow `value(x, y, c)`,
which PNGColourTypeTests.swift recomputes. JPEGs (CMYK, progressive, greyscale) use Pillow.
"""
import struct
import zlib

from PIL import Image

W, H = 9, 7  # odd sizes exercise partial bytes and every Adam7 pass


def value(x, y, c):
    return (x * 37 + y * 71 + c * 101) % 256


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_row(samples, depth):
    """Packs one row of sample values (already at `depth` bits) into bytes."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def write_png(name, color_type, depth, pixel, interlace=False, extra=b""):
    """`pixel(x, y)` returns the list of samples of one pixel."""
    raw = bytearray()
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for x0, y0, dx, dy in passes:
        xs, ys = range(x0, W, dx), range(y0, H, dy)
        if not xs or not ys:
            continue
        for y in ys:
            raw.append(0)  # filter: none
            raw += pack_row([s for x in xs for s in pixel(x, y)], depth)
    ihdr = struct.pack(">IIBBBBB", W, H, depth, color_type, 0, 0, 1 if interlace else 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    data += chunk(b"IEND", b"")
    open(name, "wb").write(data)


def grey(x, y, depth):
    return value(x, y, 0) >> (8 - depth) if depth <= 8 else value(x, y, 0) * 257


write_png("grey1.png", 0, 1, lambda x, y: [grey(x, y, 1)])
write_png("grey2.png", 0, 2, lambda x, y: [grey(x, y, 2)])
write_png("grey4.png", 0, 4, lambda x, y: [grey(x, y, 4)])
write_png("grey8.png", 0, 8, lambda x, y: [grey(x, y, 8)])
write_png("grey16.png", 0, 16, lambda x, y: [grey(x, y, 16)])
# tRNS on grey: the sample value 0x25 (pixel (1, 0)) is transparent.
write_png("grey8-trns.png", 0, 8, lambda x, y: [grey(x, y, 8)], extra=chunk(b"tRNS", struct.pack(">H", 37)))
write_png("greyalpha8.png", 4, 8, lambda x, y: [value(x, y, 0), value(x, y, 3)])
write_png("greyalpha16.png", 4, 16, lambda x, y: [value(x, y, 0) * 257, value(x, y, 3) * 257])
write_png("rgb8.png", 2, 8, lambda x, y: [value(x, y, c) for c in range(3)])
write_png("rgb16.png", 2, 16, lambda x, y: [value(x, y, c) * 257 for c in range(3)])
# tRNS on RGB: the colour of pixel (0, 0) is transparent.
write_png("rgb8-trns.png", 2, 8, lambda x, y: [value(x, y, c) for c in range(3)],
          extra=chunk(b"tRNS", struct.pack(">HHH", value(0, 0, 0), value(0, 0, 1), value(0, 0, 2))))
write_png("rgba8.png", 6, 8, lambda x, y: [value(x, y, c) for c in range(4)])
write_png("rgba16.png", 6, 16, lambda x, y: [value(x, y, c) * 257 for c in range(4)])
write_png("rgba8-interlaced.png", 6, 8, lambda x, y: [value(x, y, c) for c in range(4)], interlace=True)
write_png("rgb16-interlaced.png", 2, 16, lambda x, y: [value(x, y, c) * 257 for c in range(3)], interlace=True)
# Palette, 2 bits per index: index (x + y) % 4; tRNS gives the first two entries alpha 0 and 128.
PALETTE = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
write_png("palette2-trns.png", 3, 2, lambda x, y: [(x + y) % 4],
          extra=chunk(b"PLTE", bytes(c for rgb in PALETTE for c in rgb)) + chunk(b"tRNS", bytes([0, 128])))
write_png("palette8.png", 3, 8, lambda x, y: [(x + y) % 4],
          extra=chunk(b"PLTE", bytes(c for rgb in PALETTE for c in rgb)))

# JPEGs: 32×16, four flat quadrants (red, green / blue, white) as in TestImages.quadrants.
def quadrants(mode, colours):
    image = Image.new(mode, (32, 16))
    for y in range(16):
        for x in range(32):
            image.putpixel((x, y), colours[(y >= 8) * 2 + (x >= 16)])
    return image


rgb = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
quadrants("RGB", rgb).save("progressive.jpg", quality=95, progressive=True)
quadrants("L", [76, 150, 29, 255]).save("grey.jpg", quality=95)
# CMYK ink for the same colours; Pillow writes Adobe-style (inverted) CMYK with an APP14 marker.
cmyk = [(0, 255, 255, 0), (255, 0, 255, 0), (255, 255, 0, 0), (0, 0, 0, 0)]
quadrants("CMYK", cmyk).save("cmyk.jpg", quality=95)
