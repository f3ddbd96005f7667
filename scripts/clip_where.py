#!/usr/bin/env python3
"""Where a clip's alpha error and flicker lie, ours beside the per-frame peer's (issue 34).

Reads the masks `clip_eval.py score BIN CLIPS CACHE OUT` left in OUT/NAME.masks (the frames the sticker
used) and, with a peer cache, the peer's masks of the same frames; splits clips.py's two measures:

- alpha error (mean |α̂ − α| per frame) by where the pixel lies against the true edge (the truth
  above ½): within 3 px of it (`band`), inside it farther (`interior`), outside it within 16 px
  (`near`) or farther (`far`), and by sign (`high`: α̂ above the truth, `low`: below);
- flicker (mean |Δα̂ − Δα| over consecutive used frames) by whether the truth changes there
  (|Δα| > 0.02: the edge moving) or stays still, and then within 3 px of either frame's edge, inside, or
  outside.

The parts of each measure add up to it (to rounding).

    python3 scripts/clip_where.py CLIPS_DIR OUT [--cache CACHE_DIR] [--only d02,c06]
"""
import argparse, glob, os

import numpy as np
from PIL import Image
from scipy import ndimage as ndi


def regions(truth):
    inside = truth > 0.5
    distance = np.where(inside, ndi.distance_transform_edt(inside), ndi.distance_transform_edt(~inside))
    band = distance <= 3
    return dict(band=band, interior=inside & ~band, near=~inside & ~band & (distance <= 16), far=~inside & (distance > 16))


def split(masks, truth, used):
    error = {}
    for k in used:
        e, parts, n = masks[k] - truth[k], regions(truth[k]), masks[k].size
        for name, where in parts.items():
            error[f'{name} high'] = error.get(f'{name} high', 0) + np.clip(e, 0, None)[where].sum() / n / len(used)
            error[f'{name} low'] = error.get(f'{name} low', 0) + np.clip(-e, 0, None)[where].sum() / n / len(used)
    flicker, pairs = {}, list(zip(used, used[1:]))
    for a, b in pairs:
        d, n = np.abs((masks[b] - masks[a]) - (truth[b] - truth[a])), masks[a].size
        moving = np.abs(truth[b] - truth[a]) > 0.02
        ra, rb = regions(truth[a]), regions(truth[b])
        band = ra['band'] | rb['band']
        for name, where in (('truth moves', moving), ('still, edge', ~moving & band),
                            ('still, inside', ~moving & ~band & ra['interior']), ('still, outside', ~moving & ~band & ~ra['interior'])):
            flicker[name] = flicker.get(name, 0) + d[where].sum() / n / len(pairs)
    return error, flicker


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('clips'); parser.add_argument('out'); parser.add_argument('--cache'); parser.add_argument('--only')
    args = parser.parse_args()
    only = set(args.only.split(',')) if args.only else None
    for mdir in sorted(glob.glob(f'{args.out}/*.masks')):
        name = os.path.basename(mdir)[:-6]
        used = sorted(int(os.path.basename(f)[:4]) for f in glob.glob(f'{mdir}/[0-9][0-9][0-9][0-9].png'))
        if (only and name not in only) or len(used) < 2:
            continue
        truth = {k: np.asarray(Image.open(f'{args.clips}/{name}/{k:04d}.mask.png').convert('L'), np.float32) / 255 for k in used}
        ours = {k: np.asarray(Image.open(f'{mdir}/{k:04d}.png').convert('L'), np.float32) / 255 for k in used}
        rows = [('ours', split(ours, truth, used))]
        if args.cache and os.path.exists(f'{args.cache}/{name}.npz'):
            cached = np.load(f'{args.cache}/{name}.npz')
            rows.append(('peer', split({k: cached['masks'][k].astype(np.float32) / 255 for k in used}, truth, used)))
        for who, (error, flicker) in rows:
            print(f'{name} {who}: error {sum(error.values()):.5f} (' + ', '.join(f'{k} {v:.5f}' for k, v in error.items()) + ')')
            print(f'{name} {who}: flicker {sum(flicker.values()):.5f} (' + ', '.join(f'{k} {v:.5f}' for k, v in flicker.items()) + ')')


if __name__ == '__main__':
    main()
