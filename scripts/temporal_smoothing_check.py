#!/usr/bin/env python3
"""Would our clip masks gain from being averaged with their neighbours, moved along the subject's motion?

    python3 scripts/temporal_smoothing_check.py CLIPS_DIR OUT_DIR NAME[,NAME…] [--motion affine|euclidean]

OUT_DIR holds NAME.masks/NNNN.png as `scripts/clip_eval.py score` leaves them (`stickers sticker CLIP --mask`);
CLIPS_DIR the clips and their truth (`scripts/make_clips.py`). Each used frame's alpha is averaged with the
previous and next used frames' alphas, each warped onto it by the motion OpenCV's ECC finds between the two
frames (grey, inside the frame's subject grown by 4 px, started from the masks' centroids). Prints per clip
IoU, alpha error and flicker (×10⁴, as `../shared/eval/clips.py` measures them) of ours and of the average, and
how well the same warps carry the truth itself (the average cannot be more exact than that).
"""
import argparse, glob, json, os, subprocess, sys

import cv2
import numpy as np
from PIL import Image


def score(masks, truth):
    error = np.mean([np.abs(a - t).mean() for a, t in zip(masks, truth)])
    flicker = np.mean([np.abs((masks[i + 1] - masks[i]) - (truth[i + 1] - truth[i])).mean() for i in range(len(masks) - 1)])
    iou = np.mean([((a > 0.5) & (t > 0.5)).sum() / max(1, ((a > 0.5) | (t > 0.5)).sum()) for a, t in zip(masks, truth)])
    return f"IoU {iou:.3f}, error {error * 1e4:.0f}, flicker {flicker * 1e4:.0f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('clips')
    parser.add_argument('out')
    parser.add_argument('names')
    parser.add_argument('--motion', choices=['affine', 'euclidean'], default='affine')
    args = parser.parse_args()
    motion = cv2.MOTION_AFFINE if args.motion == 'affine' else cv2.MOTION_EUCLIDEAN
    for name in args.names.split(','):
        width, height = json.load(open(f'{args.clips}/{name}.json'))['size']
        clip = next(p for p in glob.glob(f'{args.clips}/{name}.*') if not p.endswith('.json'))
        raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', clip, '-f', 'rawvideo', '-pix_fmt', 'gray', '-'],
                             capture_output=True, check=True).stdout
        frames = np.frombuffer(raw, np.uint8).reshape(-1, height, width)
        used = sorted(int(os.path.basename(p)[:4]) for p in glob.glob(f'{args.out}/{name}.masks/*.png'))
        ours = [np.asarray(Image.open(f'{args.out}/{name}.masks/{k:04d}.png').convert('L'), np.float32) / 255 for k in used]
        truth = [np.asarray(Image.open(f'{args.clips}/{name}/{k:04d}.mask.png').convert('L'), np.float32) / 255 for k in used]
        grey = [frames[k].astype(np.float32) / 255 for k in used]
        carried = []

        def warped(source, target):
            """Frame `source`'s alpha moved onto frame `target` (nil when no motion is found)."""
            ys, xs = np.nonzero(ours[source] > 0.5)
            yt, xt = np.nonzero(ours[target] > 0.5)
            if len(xs) == 0 or len(xt) == 0:
                return None
            zone = cv2.dilate((ours[target] > 0.5).astype(np.uint8), np.ones((9, 9), np.uint8))
            guess = np.eye(2, 3, dtype=np.float32)
            guess[0, 2], guess[1, 2] = xs.mean() - xt.mean(), ys.mean() - yt.mean()
            try:
                _, warp = cv2.findTransformECC(grey[target], grey[source], guess, motion,
                                               (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 50, 1e-5), zone, 5)
            except cv2.error:
                return None
            flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
            carried.append(np.abs(cv2.warpAffine(truth[source], warp, (width, height), flags=flags) - truth[target]).mean())
            return cv2.warpAffine(ours[source], warp, (width, height), flags=flags)

        averaged = []
        for i in range(len(ours)):
            neighbours = [w for j in (i - 1, i + 1) if 0 <= j < len(ours) for w in [warped(j, i)] if w is not None]
            averaged.append(np.mean([ours[i]] + neighbours, axis=0))
        print(f"{name}: ours {score(ours, truth)}; averaged {score(averaged, truth)}; the truth carried by the same "
              f"warps off by {np.mean(carried) * 1e4:.0f}", flush=True)


if __name__ == '__main__':
    sys.exit(main())
