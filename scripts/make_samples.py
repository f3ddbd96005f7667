#!/usr/bin/env python3
"""Rebuilds Samples/ from the Debian and PyPI packages named in Samples/LICENSES.md.

Needs:  pip install pillow scikit-image
        apt-get download lomiri-wallpapers-20.04 mate-backgrounds   (then dpkg-deb -x each into DEBROOT)
Usage:  python3 scripts/make_samples.py DEBROOT
"""
import io
import os
import shutil
import sys

import skimage
from PIL import Image

ORIENTATION = 0x0112
root = sys.argv[1] if len(sys.argv) > 1 else "/tmp/raster-debs/x"
backgrounds = os.path.join(root, "usr/share/backgrounds")
skdata = os.path.join(os.path.dirname(skimage.__file__), "data")
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Samples")
os.makedirs(os.path.join(out, "invalid"), exist_ok=True)


def copy(source, name):
    shutil.copyfile(source, os.path.join(out, name))


def save_with_orientation(display, name, orientation, quality=90):
    """Stores `display` the way a camera held sideways would: pixels turned, EXIF tag set, so a
    viewer that honours the tag shows `display` upright."""
    stored = {6: display.transpose(Image.Transpose.ROTATE_90),     # viewer turns it 90° clockwise
              8: display.transpose(Image.Transpose.ROTATE_270)}[orientation]
    exif = Image.Exif()
    exif[ORIENTATION] = orientation
    stored.save(os.path.join(out, name), quality=quality, exif=exif.tobytes())


# Unchanged originals.
copy(os.path.join(backgrounds, "Kleiber_by_Lukas_Baubkus.jpg"), "nuthatch-20mp.jpg")
copy(os.path.join(backgrounds, "mate/nature/LadyBird.jpg"), "ladybird.jpg")
copy(os.path.join(backgrounds, "mate/nature/Garden.jpg"), "marigold.jpg")
copy(os.path.join(skdata, "rocket.jpg"), "rocket.jpg")
copy(os.path.join(skdata, "coffee.png"), "coffee.png")
# Re-encoded (PNG → JPEG) without other change.
Image.open(os.path.join(skdata, "chelsea.png")).convert("RGB").save(os.path.join(out, "chelsea-cat.jpg"), quality=92)

# Portrait crops, stored sideways with an EXIF orientation tag (tag added by us).
kleiber = Image.open(os.path.join(backgrounds, "Kleiber_by_Lukas_Baubkus.jpg"))
save_with_orientation(kleiber.crop((2050, 450, 3650, 2850)), "nuthatch-portrait-exif8.jpg", 8)
astronaut = Image.open(os.path.join(skdata, "astronaut.png")).convert("RGB")
save_with_orientation(astronaut.crop((64, 0, 448, 512)), "astronaut-portrait-exif6.jpg", 6, quality=92)

# The deliberately broken file: the ladybird cut off in the middle of its scan data.
data = open(os.path.join(backgrounds, "mate/nature/LadyBird.jpg"), "rb").read()
open(os.path.join(out, "invalid", "ladybird-truncated.jpg"), "wb").write(data[: len(data) * 2 // 5])
