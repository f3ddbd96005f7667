#!/usr/bin/env python3
"""Writes the fuzz seeds that are not our own golden files (run from the repository's root):

- Tests/Fuzz/corpus/webp: small files of each WebP kind the decoder's wrapper meets, made by
  libwebp through Pillow: simple lossy (VP8), lossless (VP8L), lossy with alpha (VP8X + ALPH),
  lossless with metadata (VP8X + EXIF) and animated (VP8X + ANIM).
- deflated.swatches (palette seed, and the StickerKit test fixture sunset-deflated.swatches): the
  golden Procreate palette's JSON deflated by Python's zipfile, as Procreate's own files are.
  (The palette target's other seeds are the golden files of Tests/StickerKitTests/Fixtures/palettes.)"""
import io
import pathlib
import zipfile

from PIL import Image

out = pathlib.Path("Tests/Fuzz/corpus/webp")
out.mkdir(parents=True, exist_ok=True)


def picture(mode, size=(8, 6)):
    image = Image.new(mode, size)
    for y in range(size[1]):
        for x in range(size[0]):
            rgb = (x * 30 % 256, y * 40 % 256, (x + y) * 20 % 256)
            image.putpixel((x, y), rgb + ((x * 32) % 256,) if mode == "RGBA" else rgb)
    return image


def save(name, image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "WEBP", **options)
    (out / name).write_bytes(buffer.getvalue())


save("lossy.webp", picture("RGB"), quality=50)
save("lossless.webp", picture("RGB"), lossless=True)
save("lossy-alpha.webp", picture("RGBA"), quality=50)
save("lossless-alpha-exif.webp", picture("RGBA"), lossless=True, exif=b"Exif\0\0MM\0*\0\0\0\x08\0\0")
frames = [picture("RGBA", (4, 4)), picture("RGB", (4, 4)).convert("RGBA")]
save("animated.webp", frames[0], save_all=True, append_images=frames[1:], duration=100, loop=0, lossless=True)
palettes = pathlib.Path("Tests/StickerKitTests/Fixtures/palettes")
json = zipfile.ZipFile(palettes / "sunset.swatches").read("Swatches.json")
for path in [pathlib.Path("Tests/Fuzz/corpus/palette/deflated.swatches"), palettes / "sunset-deflated.swatches"]:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("Swatches.json", date_time=(1980, 1, 1, 0, 0, 0)), json,
                         compress_type=zipfile.ZIP_DEFLATED)
for path in sorted(out.iterdir()) + [palettes / "sunset-deflated.swatches"]:
    print(path, path.stat().st_size)
