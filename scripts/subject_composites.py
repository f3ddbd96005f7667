#!/usr/bin/env python3
"""Choosing among several subjects, measured on composites of the development set's own objects.

Each composite puts 2 or 3 of the dev set's objects (cut out with their true masks, cases 001-010)
side by side, in separate columns, on one of its subject-less backgrounds (011-013) at 1632x1224
(2 MP). The objects and their places follow a fixed rule, the same for every composite: nothing is
tuned to a case. Then `stickers sticker` runs on each composite:

  --list-subjects --json   does some listed subject's point fall inside each object?
  --point X,Y --mask       X,Y a point deep inside one object: IoU with that object, and the share
                           of the other objects' area it wrongly keeps (an object the first look
                           missed gets a second, closer look: the network again on a crop around it)
  --box X0,Y0,X1,Y1 --mask the object's true bounding box: IoU with that object
  --subject all --mask     per object: IoU within the object's own column; IoU with all objects
  (no choice) --mask       which objects the default sticker keeps
and the refusals: --point outside the photo (64), --subject beyond the last (65), --point on the
background (65).

    python3 scripts/subject_composites.py [--evalset DIR] [--out DIR] BIN

Prints a Markdown table (for docs/benchmarks.md). Needs Pillow, numpy and scipy.
"""
import argparse, json, os, subprocess, sys, tempfile

import numpy as np
from PIL import Image, ImageOps
from scipy import ndimage

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument('--evalset', default=os.path.join(here, '../../shared/evalset'))
parser.add_argument('--out', default=None, help='where composites and outputs go (default: a temporary folder)')
parser.add_argument('--composites', type=int, default=6,
                    help='how many composites (6: the original set; more follow the same rule, e.g. 12)')
parser.add_argument('binary')
args = parser.parse_args()
evalset = os.path.abspath(args.evalset)
binary = os.path.abspath(args.binary)
out = os.path.abspath(args.out or tempfile.mkdtemp(prefix='subject-composites-'))
os.makedirs(out, exist_ok=True)

WIDTH, HEIGHT = 1632, 1224
OBJECT_CASES = ['%03d' % i for i in range(1, 11)]
BACKGROUND_CASES = ['011', '012', '013']


def load_object(case):
    """The object as RGBA cropped to its true mask (photo oriented as displayed)."""
    photo = ImageOps.exif_transpose(Image.open(os.path.join(evalset, case + '.jpg'))).convert('RGB')
    mask = Image.open(os.path.join(evalset, case + '.mask.png')).convert('L')
    rgba = photo.copy()
    rgba.putalpha(mask)
    return rgba.crop(mask.getbbox())


def load_background(case):
    photo = ImageOps.exif_transpose(Image.open(os.path.join(evalset, case + '.jpg'))).convert('RGB')
    return ImageOps.fit(photo, (WIDTH, HEIGHT), Image.LANCZOS)


def composite(k):
    """Composite k: 2 objects for k < 3 (and for 6 <= k < 9), else 3; object j is case (k + 4j) mod 10,
    in column j, scaled to fit 70% of the column's width and 55% of the height, at a height that steps
    with k + j. Composites 6 onwards use the same rule with the objects at half that size (small,
    secondary objects: what a first look at the whole frame misses)."""
    n = 2 if k % 6 < 3 else 3
    size = 1.0 if k < 6 else 0.5
    frame = load_background(BACKGROUND_CASES[k % 3])
    column = WIDTH // n
    truths = []
    for j in range(n):
        obj = load_object(OBJECT_CASES[(k + 4 * j) % 10])
        scale = size * min(0.70 * column / obj.width, 0.55 * HEIGHT / obj.height)
        obj = obj.resize((max(1, round(obj.width * scale)), max(1, round(obj.height * scale))), Image.LANCZOS)
        x = j * column + (column - obj.width) // 2
        slack = HEIGHT - obj.height
        y = [slack // 6, slack // 2, 5 * slack // 6][(k + j) % 3]
        frame.paste(obj, (x, y), obj)
        truth = np.zeros((HEIGHT, WIDTH), np.uint8)
        truth[y:y + obj.height, x:x + obj.width] = np.asarray(obj.getchannel('A'))
        truths.append(truth)
    return frame, truths, column


def run(*extra):
    return subprocess.run([binary, 'sticker', *extra], capture_output=True, text=True)


def read_mask(path):
    return np.asarray(Image.open(path).convert('L')) >= 128


def iou(pred, truth):
    union = (pred | truth).sum()
    return 1.0 if union == 0 else float((pred & truth).sum()) / float(union)


def deep_point(truth):
    """The pixel of the object farthest from its outline."""
    distance = ndimage.distance_transform_edt(truth >= 128)
    y, x = np.unravel_index(np.argmax(distance), distance.shape)
    return int(x), int(y)


rows, refusals = [], []
point_ious, all_ious, box_ious, missed_point_ious = [], [], [], []
for k in range(args.composites):
    name = 'c%02d' % (k + 1)
    frame, truths, column = composite(k)
    photo = os.path.join(out, name + '.jpg')
    frame.save(photo, quality=92)
    objects = [t >= 128 for t in truths]
    union = np.logical_or.reduce(objects)

    listing = run(photo, '--list-subjects', '--json')
    subjects = json.loads(listing.stdout)['subjects'] if listing.returncode == 0 else []
    found = [any(o[s['point'][1], s['point'][0]] for s in subjects) for o in objects]

    result = run(photo, '-o', os.path.join(out, name + '.all.png'), '--mask', os.path.join(out, name + '.all.mask.png'),
                 '--subject', 'all')
    everything = read_mask(os.path.join(out, name + '.all.mask.png')) if result.returncode == 0 else np.zeros_like(union)
    result = run(photo, '-o', os.path.join(out, name + '.png'), '--mask', os.path.join(out, name + '.mask.png'))
    default = read_mask(os.path.join(out, name + '.mask.png')) if result.returncode == 0 else np.zeros_like(union)
    kept = [int(j + 1) for j, o in enumerate(objects) if (default & o).sum() >= 0.5 * o.sum()]

    for j, o in enumerate(objects):
        x, y = deep_point(truths[j])
        mask_path = os.path.join(out, '%s.point%d.mask.png' % (name, j + 1))
        result = run(photo, '-o', os.path.join(out, '%s.point%d.png' % (name, j + 1)), '--mask', mask_path,
                     '--point', '%d,%d' % (x, y))
        if result.returncode == 0:
            pred = read_mask(mask_path)
            point_iou = iou(pred, o)
            others = np.logical_or.reduce([q for i, q in enumerate(objects) if i != j])
            leak = float((pred & others).sum()) / max(1, others.sum())
        else:
            point_iou, leak = 0.0, float('nan')
        if not found[j]:
            missed_point_ious.append(point_iou)
        ys, xs = np.nonzero(o)
        box = '%d,%d,%d,%d' % (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
        box_mask = os.path.join(out, '%s.box%d.mask.png' % (name, j + 1))
        result = run(photo, '-o', os.path.join(out, '%s.box%d.png' % (name, j + 1)), '--mask', box_mask, '--box', box)
        box_iou = iou(read_mask(box_mask), o) if result.returncode == 0 else 0.0
        box_ious.append(box_iou)
        columns = np.zeros_like(union)
        columns[:, j * column:(j + 1) * column] = True
        all_iou = iou(everything & columns, o & columns)
        point_ious.append(point_iou)
        all_ious.append(all_iou)
        case = OBJECT_CASES[(k + 4 * j) % 10]
        rows.append('| %s | %d (%s) | %s | %s | %.3f | %.2f %% | %.3f | %.3f |' % (
            name, j + 1, case, 'yes' if found[j] else '**no**', '%d,%d' % (x, y), point_iou, 100 * leak, box_iou, all_iou))
    rows.append('| %s | all | %d listed | default keeps %s | | | | | union %.3f |' % (
        name, len(subjects), kept or 'none', iou(everything, union)))

    # Refusals, once per composite.
    outside = run(photo, '-o', os.path.join(out, 'x.png'), '--point', '%d,0' % WIDTH)
    beyond = run(photo, '-o', os.path.join(out, 'x.png'), '--subject', str(len(subjects) + 1))
    ys, xs = np.nonzero(~everything & ~union)
    bx, by = int(xs[0]), int(ys[0])
    background = run(photo, '-o', os.path.join(out, 'x.png'), '--point', '%d,%d' % (bx, by))
    refusals.append((name, outside.returncode, beyond.returncode, beyond.stderr.strip(),
                     background.returncode, background.stderr.strip()))

print('| composite | object (dev case) | listed | --point | IoU --point | others kept | IoU --box | IoU --subject all |')
print('|---|---|---|---|---|---|---|---|')
for row in rows:
    print(row)
print()
print('mean IoU --point %.3f (min %.3f, %d of %d >= 0.85); --box %.3f (min %.3f); --subject all %.3f (min %.3f); %d objects'
      % (np.mean(point_ious), np.min(point_ious), sum(v >= 0.85 for v in point_ious), len(point_ious),
         np.mean(box_ious), np.min(box_ious), np.mean(all_ious), np.min(all_ious), len(point_ious)))
if missed_point_ious:
    print('objects the first look misses: %d; their IoU --point %s'
          % (len(missed_point_ious), ', '.join('%.3f' % v for v in missed_point_ious)))
print()
for name, outside, beyond, beyond_msg, background, background_msg in refusals:
    print('%s: --point outside → %d; --subject beyond → %d (%s); --point on background → %d (%s)'
          % (name, outside, beyond, beyond_msg, background, background_msg))
print('outputs in', out, file=sys.stderr)
