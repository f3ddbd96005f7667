#!/usr/bin/env python3
"""The cut-out speed bar, measured fairly on a noisy machine: each photo goes through rembg's own
U²-Net-p pipeline (peers.py, warm ONNX Runtime session, as rembg keeps it) and then through each
given `stickers` binary as a whole `stickers sticker IMG -o OUT --mask MASK` process, photo by
photo, for several rounds; the medians per photo and their means are printed with ratios to rembg.
Interleaving keeps the machine's drift (±20% from minute to minute here) out of the ratios.

    python3 scripts/compare_rembg.py [--rounds N] [--evalset DIR] [--eval DIR] BIN [BIN ...]

Needs ../shared/eval (peers.py and its requirements) or --eval pointing at it.
"""
import argparse, os, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument('--rounds', type=int, default=3)
parser.add_argument('--eval', default=os.path.join(here, '../../shared/eval'))
parser.add_argument('--evalset', default=None, help='default: EVAL/../evalset')
parser.add_argument('binaries', nargs='+')
args = parser.parse_args()
eval_dir = os.path.abspath(args.eval)
evalset = os.path.abspath(args.evalset or os.path.join(eval_dir, '../evalset'))
binaries = [os.path.abspath(b) for b in args.binaries]
sys.path.insert(0, eval_dir)
import peers  # noqa: E402

cases = peers.mask_cases(evalset)
out = tempfile.mkdtemp(prefix='compare-rembg-')
peers.rembg_u2netp(cases[0] + '.jpg')  # the session is made once, outside the timing
times = {name: {c: [] for c in cases} for name in ['rembg'] + binaries}
for _ in range(args.rounds):
    for c in cases:
        t = time.perf_counter(); peers.rembg_u2netp(c + '.jpg')
        times['rembg'][c].append((time.perf_counter() - t) * 1000)
        for b in binaries:
            t = time.perf_counter()
            r = subprocess.run([b, 'sticker', c + '.jpg', '-o', os.path.join(out, 's.png'), '--mask', os.path.join(out, 'm.png')],
                               capture_output=True)
            if r.returncode not in (0, 65):  # 65: no clear subject, a valid answer for 011–013
                sys.exit(f'{b} failed on {c}.jpg (exit {r.returncode}): {r.stderr.decode()[:300]}')
            times[b][c].append((time.perf_counter() - t) * 1000)

median = lambda name, c: statistics.median(times[name][c])
print('case  ' + ''.join(f'{"rembg" if n == "rembg" else "bin " + str(i):>10}' for i, n in enumerate(times)))
for c in cases:
    print(f'{os.path.basename(c):5} ' + ''.join(f'{median(n, c):10.0f}' for n in times))
with_subject = [c for c in cases if peers.truth(c).max() > 0]  # no-subject cases have an all-zero mask
for label, group in (('subject photos', with_subject), ('all photos', cases)):
    base = statistics.mean(median('rembg', c) for c in group)
    cells = [f'rembg {base:.0f} ms']
    for i, b in enumerate(binaries):
        mean = statistics.mean(median(b, c) for c in group)
        cells.append(f'bin {i + 1} {mean:.0f} ms ({mean / base:.2f}×)')
    print(f'{label} ({len(group)}): ' + ', '.join(cells))
for i, b in enumerate(binaries):
    print(f'bin {i + 1} = {b}')
