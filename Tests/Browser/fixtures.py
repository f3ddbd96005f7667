"""Makes the browser tests' photos without any image library: a real PNG of a simple subject,
a corrupt JPEG (right magic bytes, nothing after), and a text file that pretends to be a photo.

usage: fixtures.py LIBRARY_DIR UPLOADS_DIR
"""
import os
import struct
import sys
import zlib


def png(width, height, pixel):
    """An 8-bit RGB PNG whose pixel (x, y) is pixel(x, y) -> (r, g, b)."""
    rows = b"".join(b"\x00" + bytes(c for x in range(width) for c in pixel(x, y)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def sunset(x, y):
    """A warm sky over a dark sea with an orange sun: a few clear colours."""
    if (x - 80) ** 2 + (y - 70) ** 2 < 30 ** 2:
        return (250, 160, 40)
    if y > 100:
        return (20, 40, 90)
    return (240, 110 + y // 2, 120)


def ball(x, y):
    """A green ball on white."""
    return (40, 170, 80) if (x - 60) ** 2 + (y - 60) ** 2 < 40 ** 2 else (250, 250, 250)


def main():
    library, uploads = sys.argv[1], sys.argv[2]
    os.makedirs(os.path.join(library, "invalid"), exist_ok=True)
    os.makedirs(uploads, exist_ok=True)
    with open(os.path.join(library, "ball.png"), "wb") as f:
        f.write(png(120, 120, ball))
    with open(os.path.join(library, "invalid", "broken.jpg"), "wb") as f:
        f.write(b"\xff\xd8\xff\xe0\x00\x10JFIF")
    with open(os.path.join(uploads, "sunset.png"), "wb") as f:
        f.write(png(160, 140, sunset))
    with open(os.path.join(uploads, "truncated.jpg"), "wb") as f:
        f.write(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
    with open(os.path.join(uploads, "notes.png"), "wb") as f:
        f.write(b"these are notes, not a picture\n")


if __name__ == "__main__":
    main()
