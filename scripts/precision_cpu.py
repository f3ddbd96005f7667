#!/usr/bin/env python3
"""CPU time of one `stickers sticker` process per photo, float products against the default's BF16
layers (issue 37): for every photo of an evaluation folder, ROUNDS runs under each of
STICKERS_PRECISION=fp32 and the variants asked for (default: mixed), interleaved photo by photo so
the machine's load drifts alike over both; each process's user + system time from getrusage.
CPU time rather than wall: the machines are shared, and another process's load stretches wall
time but hardly the CPU our threads spend.

    python3 scripts/precision_cpu.py BIN [--evalset DIR] [--rounds 3] [--variant V ...]

Prints, per photo and in all, the median CPU ms of each and the variant's ratio to float.
"""
import argparse, glob, os, resource, statistics, subprocess, tempfile

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument('binary')
parser.add_argument('--evalset', default=os.path.join(here, '../../shared/evalset'))
parser.add_argument('--rounds', type=int, default=3)
parser.add_argument('--variant', action='append')
args = parser.parse_args()
precisions = ['fp32'] + (args.variant or ['mixed'])
out = tempfile.mkdtemp(prefix='precision-cpu-')


def cpu_ms(photo, precision):
    env = dict(os.environ, STICKERS_PRECISION=precision)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    # Exit 65 (no subject) is a result too: its network ran.
    subprocess.run([args.binary, 'sticker', photo, '-o', os.path.join(out, 'x.png')], env=env, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000 * ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


photos = sorted(glob.glob(os.path.join(args.evalset, '[0-9]*.jpg')))
samples = {p: {q: [] for q in precisions} for p in photos}
for photo in photos:
    for _ in range(args.rounds):
        for precision in precisions:
            samples[photo][precision].append(cpu_ms(photo, precision))

print('| photo | ' + ' | '.join(f'{q} CPU ms (median of {args.rounds})' for q in precisions) + ' | '
      + ' | '.join(f'{q} / fp32' for q in precisions[1:]) + ' |')
print('|---|' + '---:|' * (2 * len(precisions) - 1))
totals = {q: 0.0 for q in precisions}
for photo in photos:
    medians = {q: statistics.median(samples[photo][q]) for q in precisions}
    for q in precisions:
        totals[q] += medians[q]
    print(f'| {os.path.basename(photo)} | ' + ' | '.join(f'{medians[q]:.1f}' for q in precisions) + ' | '
          + ' | '.join(f'{medians[q] / medians["fp32"]:.3f}' for q in precisions[1:]) + ' |')
n = len(photos)
print(f'| mean per photo ({n}) | ' + ' | '.join(f'{totals[q] / n:.1f}' for q in precisions) + ' | '
      + ' | '.join(f'{totals[q] / totals["fp32"]:.3f}' for q in precisions[1:]) + ' |')
