#!/usr/bin/env python3
"""The quality gate of the reduced-precision network (issue 37): runs `stickers sticker` on every
case of an evaluation folder twice, with float products (STICKERS_PRECISION=fp32, the default)
and with bfloat16 ones (STICKERS_PRECISION=bf16, where the CPU has AVX-512 BF16), and prints per case the IoU and mean
alpha error of each against the true mask (the metrics of shared/eval/peers.py), whether a
no-subject case was refused in both, and how far the two masks are from each other.

    python3 scripts/precision_gate.py BIN [--evalset DIR] [--out DIR]

The gate: IoU within 0.002 and alpha error within 2 % of float's, no-subject photos still refused.
Exit status 1 when a case fails it. Needs Pillow and numpy.
"""
import argparse, glob, os, subprocess, sys, tempfile

import numpy as np
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument('binary')
parser.add_argument('--evalset', default=os.path.join(here, '../../shared/evalset'))
parser.add_argument('--out', default=None)
args = parser.parse_args()
out = args.out or tempfile.mkdtemp(prefix='precision-gate-')


def scores(gt, pred):  # peers.py's mask_scores: IoU of alpha ≥ 0.5, mean |alpha error|
    g, p = gt >= 0.5, pred >= 0.5
    union = (g | p).sum()
    return (1.0 if union == 0 else (g & p).sum() / union), float(np.abs(gt - pred).mean())


def run(case, precision):
    folder = os.path.join(out, precision)
    os.makedirs(folder, exist_ok=True)
    name = os.path.basename(case)
    mask = os.path.join(folder, name + '.mask.png')
    env = dict(os.environ)
    env['STICKERS_PRECISION'] = precision
    r = subprocess.run([args.binary, 'sticker', case + '.jpg', '-o', os.path.join(folder, name + '.png'), '--mask', mask],
                       env=env, capture_output=True, text=True)
    if r.returncode or not os.path.exists(mask):
        return None, r.returncode
    return np.asarray(Image.open(mask).convert('L'), np.float32) / 255, 0


failed = False
rows = []
print('| case | IoU fp32 | IoU bf16 | alpha err fp32 | alpha err bf16 | masks: max / mean diff, pixels over ½ flipped |')
print('|---|---:|---:|---:|---:|---|')
for case in sorted(p[:-len('.mask.png')] for p in glob.glob(os.path.join(args.evalset, '*.mask.png'))):
    gt = np.asarray(Image.open(case + '.mask.png').convert('L'), np.float32) / 255
    (a, sa), (b, sb) = run(case, 'fp32'), run(case, 'bf16')
    name = os.path.basename(case)
    if gt.max() == 0:  # no subject: refused (exit 65) or empty in both
        refused = [x is None or x.max() < 0.5 for x in (a, b)]
        print(f'| {name} (no subject) | exit {sa} | exit {sb} | | | refused: {refused[0]} / {refused[1]} |')
        failed |= refused[0] != refused[1] or not refused[1]
        continue
    if a is None or b is None:
        print(f'| {name} | exit {sa} | exit {sb} | | | |')
        failed = True
        continue
    (ia, ea), (ib, eb) = scores(gt, a), scores(gt, b)
    d = np.abs(a - b)
    flipped = int(((a >= 0.5) != (b >= 0.5)).sum())
    print(f'| {name} | {ia:.4f} | {ib:.4f} | {ea:.4f} | {eb:.4f} | {d.max():.3f} / {d.mean():.5f}, {flipped} |')
    rows.append((ia, ib, ea, eb))
    failed |= ib < ia - 0.002 or eb > ea * 1.02 + 1e-4
if rows:
    m = np.mean(rows, axis=0)
    print(f'| mean | {m[0]:.4f} | {m[1]:.4f} | {m[2]:.4f} | {m[3]:.4f} | |')
    failed |= m[1] < m[0] - 0.002 or m[3] > m[2] * 1.02
print('gate:', 'FAILED' if failed else 'passed', f'(outputs in {out})')
sys.exit(1 if failed else 0)
