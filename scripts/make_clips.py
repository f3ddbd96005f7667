#!/usr/bin/env python3
"""A development set of clips for animated stickers, with the true alpha of every frame.

Each clip moves a cut-out object (one of the photo dev set's objects, cut out with its true mask,
cases 001-010 of ../shared/evalset) over a slowly panned background (the dev set's subject-less
backgrounds 011-013, or another case's photo far from its object), turning it, scaling it and
adding sensor noise, as ../shared/evalset-clips is described; one clip is a GIF and one has no
subject (the pan alone). The motions follow one rule with a per-clip seed: nothing is tuned to a
clip. Then harder ones (`--extra`, on by default): camera shake, strong scaling, a second object
fixed in the scene (a distractor), a foreground post passing in front of the subject (partial
occlusion), a shaky GIF; and clips without a subject that still hold salient things: pans over a
whole photo of the dev set with its object (a still object carried by the camera is scenery), over
a "crowd" of small objects fixed in the scene, and a shaky GIF of one. Writes, in the layout
eval/clips.py reads:

    OUT/cNN.mp4 | cNN.gif, OUT/cNN.json (fps, frames, size, subject), OUT/cNN/NNNN.mask.png

    python3 scripts/make_clips.py [--evalset DIR] [--count N] [--only c16,...] OUT

Needs ffmpeg, Pillow and numpy.
"""
import argparse, json, math, os, shutil, subprocess, tempfile

import numpy as np
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument('--evalset', default=os.path.join(here, '../../shared/evalset'))
parser.add_argument('--count', type=int, default=6, help='clips with a subject (one of them a GIF); one more has none')
parser.add_argument('--no-extra', dest='extra', action='store_false', help='only the plain clips')
parser.add_argument('--only', help='make only these clips (names, comma-separated); the others are left as they are')
parser.add_argument('--wide', type=int, metavar='N', help='instead: N clips wNN of Tux Paint stamps over MATE photos '
                    '(as ../shared/evalset-clips is made: every third a 15 fps GIF) and two wNN without subject')
parser.add_argument('--seed', type=int, default=2026, help='--wide: the draw of stamps and photos (another seed, another set)')
parser.add_argument('--stamps', default='/usr/share/tuxpaint/stamps', help='--wide: Tux Paint stamps (apt-get install tuxpaint-stamps-default)')
parser.add_argument('--photos', default='/usr/share/backgrounds/mate/nature', help='--wide: background photos (apt-get install mate-backgrounds)')
parser.add_argument('out')
args = parser.parse_args()
os.makedirs(args.out, exist_ok=True)

OBJECTS = ['%03d' % i for i in range(1, 11)]
BACKGROUNDS = ['011', '012', '013']


def oriented(path):
    from PIL import ImageOps
    return ImageOps.exif_transpose(Image.open(path)).convert('RGB')


def cut_object(case):
    if case.endswith('.png'):  # a Tux Paint stamp: RGBA already, cropped to what it covers
        stamp = Image.open(case).convert('RGBA')
        return stamp.crop(stamp.getchannel('A').point(lambda a: 255 if a > 5 else 0).getbbox())
    photo = np.asarray(oriented(f'{args.evalset}/{case}.jpg'), np.float32)
    alpha = np.asarray(Image.open(f'{args.evalset}/{case}.mask.png').convert('L'), np.float32) / 255
    ys, xs = np.nonzero(alpha > 0.02)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    rgba = np.dstack([photo[y0:y1, x0:x1], alpha[y0:y1, x0:x1, None] * 255]).astype(np.uint8)
    return Image.fromarray(rgba, 'RGBA')


def paste_rgba(frame, alpha_under, thing, cx, cy):
    """`thing` (RGBA) drawn over `frame` centred at (cx, cy); returns the frame and the thing's alpha."""
    h, w = frame.shape[:2]
    layer = Image.new('RGBA', (w, h))
    layer.paste(thing, (int(cx - thing.width / 2), int(cy - thing.height / 2)), thing)
    arr = np.asarray(layer, np.float32)
    alpha = arr[..., 3] / 255
    return frame * (1 - alpha[..., None]) + arr[..., :3] * alpha[..., None], alpha


def clip(name, index, subject, gif, extra=None, thing_source=None, background_path=None):
    """One clip. `extra` (the harder clips): shake (px of camera jitter), scaling (amplitude),
    scene (a case whose whole photo is the background), distractor (case of an object fixed in the
    scene), crowd (that many small objects fixed in the scene), post (a foreground post crossing),
    pause ((t0, t1): from t0 to t1 the subject stops on the background: its pose frozen, carried by the pan).
    `thing_source` and `background_path` (--wide) replace the dev set's object and background."""
    if args.only and name not in args.only.split(','):
        return
    extra = extra or {}
    rng = np.random.default_rng(1000 + index)
    xrng = np.random.default_rng(5000 + index)  # the extras' own draws: the plain clips stay as they were
    w, h = (480, 360) if gif else ((640, 480) if index % 2 else (576, 432))
    fps = 15 if gif else (30 if index % 3 else 25)
    frames = int(fps * (2.0 if gif else 2.5))
    background_case = extra.get('scene', BACKGROUNDS[index % len(BACKGROUNDS)])
    background = oriented(background_path or f'{args.evalset}/{background_case}.jpg')
    # The background, 1.35× the frame, panned diagonally across its spare margin.
    scale = 1.35 * max(w / background.width, h / background.height)
    background = background.resize((int(background.width * scale) + 1, int(background.height * scale) + 1), Image.LANCZOS)
    bg = np.asarray(background, np.float32).copy()
    spare_x, spare_y = bg.shape[1] - w, bg.shape[0] - h
    # Things fixed in the scene are drawn into the background before it is panned.
    fixed = []
    if 'distractor' in extra:
        fixed.append((cut_object(extra['distractor']), 0.3))
    for k in range(extra.get('crowd', 0)):
        fixed.append((cut_object(OBJECTS[(index + 3 * k + 1) % len(OBJECTS)]), 0.16))
    for thing_fixed, size in fixed:
        f = size * min(w, h) / max(thing_fixed.width, thing_fixed.height)
        thing_fixed = thing_fixed.resize((max(1, int(thing_fixed.width * f)), max(1, int(thing_fixed.height * f))), Image.LANCZOS)
        cx, cy = xrng.uniform(0.25, 0.75) * bg.shape[1], xrng.uniform(0.3, 0.7) * bg.shape[0]
        bg, _ = paste_rgba(bg, None, thing_fixed, cx, cy)
    shake = extra.get('shake', 0)
    jitter = np.cumsum(xrng.normal(0, shake, (200, 2)), axis=0) * 0.5 if shake else np.zeros((200, 2))
    jitter = np.clip(jitter, -2 * shake - 1, 2 * shake + 1)
    object_case = thing_source or OBJECTS[(index * 3) % len(OBJECTS)]
    thing = cut_object(object_case) if subject else None
    if thing is not None:
        # Shrunk once to the largest size it takes (resizing the full-size cut-out per frame is slow).
        shrink = min(1.0, 1.25 * 0.55 * min(w, h) / max(thing.width, thing.height))
        thing = thing.resize((max(1, int(thing.width * shrink)), max(1, int(thing.height * shrink))), Image.LANCZOS)
        base = 0.55 * min(w, h) / max(thing.width, thing.height)
    phase = rng.uniform(0, 2 * math.pi, 4)
    tmp = tempfile.mkdtemp(prefix='clip-')
    masks = f'{args.out}/{name}'
    shutil.rmtree(masks, ignore_errors=True)
    os.makedirs(masks)
    def pan(t, k):
        ox, oy = int(spare_x * (0.1 + 0.8 * t)), int(spare_y * (0.8 - 0.6 * t))
        if shake:
            ox = int(np.clip(ox + jitter[k, 0], 0, spare_x)); oy = int(np.clip(oy + jitter[k, 1], 0, spare_y))
        return ox, oy
    pause = extra.get('pause')
    for k in range(frames):
        t = k / max(1, frames - 1)
        ox, oy = pan(t, k)
        frame = bg[oy:oy + h, ox:ox + w].copy()
        alpha = np.zeros((h, w), np.float32)
        if thing is not None:
            tp, dx, dy = t, 0, 0
            if pause and pause[0] < t < pause[1]:
                # Stopped on the background: the pose of t0, carried by the pan since then.
                k0 = int(round(pause[0] * (frames - 1)))
                tp = k0 / max(1, frames - 1)
                ox0, oy0 = pan(tp, k0)
                dx, dy = ox0 - ox, oy0 - oy
            s = base * (1 + extra.get('scaling', 0.2) * math.sin(2 * math.pi * tp + phase[0]))  # scaling
            angle = 25 * math.sin(2 * math.pi * tp * 0.8 + phase[1])             # turning
            obj = thing.resize((max(1, int(thing.width * s)), max(1, int(thing.height * s))), Image.LANCZOS)
            obj = obj.rotate(angle, resample=Image.BICUBIC, expand=True)
            cx = w * (0.5 + 0.22 * math.sin(2 * math.pi * tp + phase[2])) + dx   # moving
            cy = h * (0.5 + 0.15 * math.sin(2 * math.pi * tp * 1.3 + phase[3])) + dy
            frame, alpha = paste_rgba(frame, None, obj, cx, cy)
        if extra.get('post'):
            # A dark post, fixed in the scene nearer than the subject, crossing the frame with the pan
            # (faster than the background: parallax); it hides what it covers.
            px = w * (1.1 - 1.3 * t)
            post = np.clip((14 - np.abs(np.arange(w) - px)) / 2, 0, 1)[None, :].repeat(h, 0)
            frame = frame * (1 - post[..., None]) + np.array([52, 40, 34], np.float32) * post[..., None]
            alpha = alpha * (1 - post)
        frame = np.clip(frame + rng.normal(0, 3.0, frame.shape), 0, 255).astype(np.uint8)  # sensor noise
        Image.fromarray(frame).save(f'{tmp}/{k:04d}.png')
        Image.fromarray((alpha * 255 + 0.5).astype(np.uint8), 'L').save(f'{masks}/{k:04d}.mask.png')
    if gif:
        target = f'{args.out}/{name}.gif'
        subprocess.run(['ffmpeg', '-v', 'error', '-y', '-framerate', str(fps), '-i', f'{tmp}/%04d.png', '-filter_complex',
                        '[0:v]split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=bayer', target], check=True)
    else:
        target = f'{args.out}/{name}.mp4'
        subprocess.run(['ffmpeg', '-v', 'error', '-y', '-framerate', str(fps), '-i', f'{tmp}/%04d.png', '-c:v', 'libx264',
                        '-pix_fmt', 'yuv420p', '-crf', '20', target], check=True)
    shutil.rmtree(tmp)
    with open(f'{args.out}/{name}.json', 'w') as f:
        json.dump(dict(fps=fps, frames=frames, size=[w, h], subject=subject,
                       object=None if thing is None else os.path.relpath(object_case, args.stamps) if thing_source else object_case,
                       background=os.path.basename(background_path) if background_path else background_case, **{k: v for k, v in extra.items() if k != 'scene'}), f, indent=1)
    print(target, frames, 'frames', f'{w}x{h}', f'{fps} fps', 'subject' if subject else 'no subject')


if args.wide is not None:
    # Stamps and photos the shared clips do not use, picked by one seeded draw: nothing chosen by hand.
    shared = ('adeenia', 'spade')
    stamps = sorted(os.path.join(d, f) for d, _, fs in os.walk(args.stamps) for f in fs
                    if f.endswith('.png') and not f.endswith('_mirror.png') and not f.startswith(shared))
    photos = sorted(os.path.join(args.photos, f) for f in os.listdir(args.photos) if f.endswith('.jpg'))
    pick = np.random.default_rng(args.seed)
    for i in range(args.wide + 2):
        subject = i < args.wide
        # The first set's motions as they were; another seed's set moves its own way.
        clip('w%02d' % (i + 1), 100 + i + (0 if args.seed == 2026 else 37 * args.seed), subject, gif=(i % 3 == 2),
             thing_source=stamps[pick.integers(len(stamps))], background_path=photos[pick.integers(len(photos))])
    raise SystemExit

for i in range(args.count):
    clip('c%02d' % (i + 1), i + 1, True, gif=(i == args.count - 1))
clip('c%02d' % (args.count + 1), args.count + 1, False, gif=False)
if args.extra:
    n = args.count + 2
    hard = [(True, False, dict(shake=3, scaling=0.4)),
            (True, False, dict(distractor='004')),
            (True, False, dict(post=True, shake=1)),
            (True, True, dict(shake=2, distractor='009')),
            (False, False, dict(scene='006')),
            (False, False, dict(scene='002', shake=2)),
            (False, False, dict(crowd=5)),
            (False, True, dict(scene='010', shake=2)),
            (True, False, dict(pause=(0.25, 0.75)))]
    for k, (subject, gif, extra) in enumerate(hard):
        clip('c%02d' % (n + k), n + k, subject, gif=gif, extra=extra)
