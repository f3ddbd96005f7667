#!/usr/bin/env python3
"""The quality gate of the reduced-precision network (issue 37): runs `stickers sticker` on every
case of an evaluation folder with float products (STICKERS_PRECISION=fp32, the reference) and with
each variant asked for (a STICKERS_PRECISION value: `mixed`, the default, BF16 in the layers the
cut-out tolerates; `bf16`, every layer; `bf16:98,111,13-25`, the listed convolutions), and prints
per case the IoU and mean alpha error of each against the true mask (the metrics of
shared/eval/peers.py), whether a no-subject case was refused in both, and how far the masks are from
float's; then one summary row per variant.

    python3 scripts/precision_gate.py BIN [--evalset DIR] [--out DIR] [--variant V ...] [--jobs N]
                                          [--composites N]

The gate: IoU within 0.002 and alpha error within 2 % of float's, both over the mean and for every
case, no-subject photos still refused. Exit status 1 when a variant fails it. On a CPU without
AVX-512 BF16 every variant computes in float (and passes trivially). Needs Pillow and numpy.

--composites N also runs scripts/subject_composites.py (N composites of the dev set's objects, every
way of choosing a subject) under fp32 and each variant, and compares their IoU columns object by
object (the gate: each column's mean within 0.002 of float's; the refusals the same).
"""
import argparse, glob, os, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument('binary')
parser.add_argument('--evalset', default=os.path.join(here, '../../shared/evalset'))
parser.add_argument('--out', default=None)
parser.add_argument('--variant', action='append', help='a STICKERS_PRECISION value to compare with fp32 (default: mixed)')
parser.add_argument('--jobs', type=int, default=1, help='cases run at once (each `sticker` uses every core)')
parser.add_argument('--quiet', action='store_true', help='only the summary rows')
parser.add_argument('--composites', type=int, default=0, help='also compare subject_composites.py\'s tables (N composites)')
args = parser.parse_args()
variants = args.variant or ['mixed']
out = args.out or tempfile.mkdtemp(prefix='precision-gate-')


def scores(gt, pred):  # peers.py's mask_scores: IoU of alpha ≥ 0.5, mean |alpha error|
    g, p = gt >= 0.5, pred >= 0.5
    union = (g | p).sum()
    return (1.0 if union == 0 else (g & p).sum() / union), float(np.abs(gt - pred).mean())


def run(case, precision):
    folder = os.path.join(out, precision.replace(':', '_').replace(',', '+'))
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


cases = sorted(p[:-len('.mask.png')] for p in glob.glob(os.path.join(args.evalset, '*.mask.png')))
truths = {c: np.asarray(Image.open(c + '.mask.png').convert('L'), np.float32) / 255 for c in cases}
with ThreadPoolExecutor(max(1, args.jobs)) as pool:
    reference = dict(zip(cases, pool.map(lambda c: run(c, 'fp32'), cases)))

failed = False
summary = []
for variant in variants:
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = dict(zip(cases, pool.map(lambda c: run(c, variant), cases)))
    if not args.quiet:
        print(f'\n{variant} against fp32:\n')
        print(f'| case | IoU fp32 | IoU {variant} | alpha err fp32 | alpha err {variant} | masks: max / mean diff, pixels over ½ flipped |')
        print('|---|---:|---:|---:|---:|---|')
    rows, refusals, case_failed = [], True, False
    for case in cases:
        gt, name = truths[case], os.path.basename(case)
        (a, sa), (b, sb) = reference[case], results[case]
        if gt.max() == 0:  # no subject: refused (exit 65) or empty in both
            refused = [x is None or x.max() < 0.5 for x in (a, b)]
            if not args.quiet:
                print(f'| {name} (no subject) | exit {sa} | exit {sb} | | | refused: {refused[0]} / {refused[1]} |')
            refusals &= refused[0] == refused[1] and refused[1]
            continue
        if a is None or b is None:
            print(f'| {name} | exit {sa} | exit {sb} | | | |')
            case_failed = True
            continue
        (ia, ea), (ib, eb) = scores(gt, a), scores(gt, b)
        d = np.abs(a - b)
        flipped = int(((a >= 0.5) != (b >= 0.5)).sum())
        if not args.quiet:
            print(f'| {name} | {ia:.4f} | {ib:.4f} | {ea:.4f} | {eb:.4f} | {d.max():.3f} / {d.mean():.5f}, {flipped} |')
        rows.append((ia, ib, ea, eb, d.mean(), flipped))
        case_failed |= ib < ia - 0.002 or eb > ea * 1.02 + 1e-4
    r = np.array(rows)
    m = r.mean(axis=0)
    mean_failed = m[1] < m[0] - 0.002 or m[3] > m[2] * 1.02
    worst_iou = (r[:, 1] - r[:, 0]).min()
    worst_err = ((r[:, 3] - r[:, 2]) / np.maximum(r[:, 2], 1e-9)).max()
    if not args.quiet:
        print(f'| mean | {m[0]:.4f} | {m[1]:.4f} | {m[2]:.4f} | {m[3]:.4f} | {m[4]:.5f} mean diff |')
    summary.append((variant, m[1] - m[0], (m[3] - m[2]) / m[2], worst_iou, worst_err, m[4], int(r[:, 5].sum()),
                    refusals, not mean_failed, not case_failed))
    failed |= mean_failed or case_failed or not refusals

print('\n| STICKERS_PRECISION | mean IoU Δ | mean alpha err Δ | worst case IoU Δ | worst case alpha err Δ '
      '| mean mask diff | pixels flipped | no-subject refused | gate: mean | gate: every case |')
print('|---|---:|---:|---:|---:|---:|---:|---|---|---|')
for v, di, de, wi, we, md, fl, ref, gm, gc in summary:
    print(f'| {v} | {di:+.4f} | {100 * de:+.2f} % | {wi:+.4f} | {100 * we:+.2f} % | {md:.5f} | {fl} | '
          f'{"yes" if ref else "NO"} | {"pass" if gm else "FAIL"} | {"pass" if gc else "FAIL"} |')


def composite_table(precision):
    """subject_composites.py's rows under `precision`: {(composite, object): [IoU --point, --box,
    --subject all]}, and what must not change: which objects were listed and kept, the refusals."""
    env = dict(os.environ)
    env['STICKERS_PRECISION'] = precision
    folder = os.path.join(out, 'composites-' + precision.replace(':', '_').replace(',', '+'))
    r = subprocess.run([sys.executable, os.path.join(here, 'subject_composites.py'), '--evalset', args.evalset, '--out', folder,
                        '--composites', str(args.composites), args.binary], env=env, capture_output=True, text=True)
    if r.returncode:
        sys.exit(f'subject_composites.py under STICKERS_PRECISION={precision} failed:\n{r.stderr[-2000:]}')
    with open(os.path.join(folder, 'table.md'), 'w') as f:
        f.write(r.stdout)
    rows, refusals = {}, []
    for line in r.stdout.replace(folder + '/', '').splitlines():  # messages name the photo's path
        cells = [c.strip() for c in line.strip('|').split('|')]
        if line.startswith('| c') and len(cells) == 8 and cells[1][:1].isdigit():
            rows[(cells[0], cells[1])] = [float(cells[4]), float(cells[6]), float(cells[7])]
            refusals.append(f'{cells[0]} {cells[1]} listed: {cells[2]}')
        elif line.startswith('| c') and len(cells) == 9 and cells[1] == 'all':
            refusals.append(f'{cells[0]}: {cells[2]}, {cells[3]}')  # subjects listed, objects the default keeps
        elif ': --point outside' in line:
            refusals.append(line)
    return rows, refusals


if args.composites:
    reference_rows, reference_refusals = composite_table('fp32')
    print(f'\n| STICKERS_PRECISION | composites: objects | mean Δ IoU --point | --box | --subject all '
          '| worst object Δ (point, box, all) | listed, kept, refused as fp32 | gate |')
    print('|---|---:|---:|---:|---:|---|---|---|')
    for variant in variants:
        rows, refusals = composite_table(variant)
        keys = sorted(reference_rows)
        deltas = np.array([np.array(rows[k]) - np.array(reference_rows[k]) for k in keys])
        mean, worst = deltas.mean(axis=0), deltas.min(axis=0)
        same = refusals == reference_refusals and sorted(rows) == keys
        for a, b in zip(reference_refusals, refusals):
            if a != b:
                print(f'<!-- fp32: {a} -->\n<!-- {variant}: {b} -->')
        ok = same and (mean >= -0.002).all()
        failed |= not ok
        print(f'| {variant} | {len(keys)} | {mean[0]:+.4f} | {mean[1]:+.4f} | {mean[2]:+.4f} | '
              f'{worst[0]:+.4f}, {worst[1]:+.4f}, {worst[2]:+.4f} | {"yes" if same else "NO"} | {"pass" if ok else "FAIL"} |')

print('gate:', 'FAILED' if failed else 'passed', f'(outputs in {out})')
sys.exit(1 if failed else 0)
