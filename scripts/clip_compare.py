#!/usr/bin/env python3
"""Two runs of `clip_eval.py score` side by side, clip by clip (issue 34): which clips a change moved.

Reads the logs the score command prints (one or several sets, each after a line `== NAME`, as a
script that scores several sets writes them) and prints, for every clip in both, IoU and the alpha
error's and flicker's ratios to the peer's, before → after, marking the clips that moved (IoU by
0.0015 or more, alpha error or flicker by 0.0003 or more), then each set's totals.

    python3 scripts/clip_compare.py BEFORE.log AFTER.log
"""
import re, sys

CLIP = re.compile(r'(\w+): .*IoU ([\d.]+) vs peer [\d.]+, err ([\d.]+) vs ([\d.]+) .*flicker ([\d.]+) vs ([\d.]+)')
TOTAL = re.compile(r'\d+ clips: IoU ([\d.]+) .*alpha error ([\d.]+) vs ([\d.]+) .*flicker ([\d.]+) vs ([\d.]+)')


def load(path):
    """(set, clip) → (IoU, error, peer's error, flicker, peer's flicker); clip 'ALL' for a set's totals."""
    runs, current = {}, '-'
    with open(path) as log:
        for line in log:
            if line.startswith('=='):
                current = line.split()[1]
            elif match := CLIP.match(line):
                runs[(current, match[1])] = tuple(float(x) for x in match.groups()[1:])
            elif match := TOTAL.match(line):
                runs[(current, 'ALL')] = tuple(float(x) for x in match.groups())
    return runs


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = load(sys.argv[1]), load(sys.argv[2])
    for key, b in after.items():
        a = before.get(key)
        if a is None:
            continue
        moved = abs(a[0] - b[0]) >= 0.0015 or abs(a[1] - b[1]) >= 0.0003 or abs(a[3] - b[3]) >= 0.0003
        print(f'{key[0]:8} {key[1]:5} IoU {a[0]:.3f} → {b[0]:.3f}   error {a[1] / a[2]:.2f}× → {b[1] / b[2]:.2f}×   '
              f'flicker {a[3] / a[4]:.2f}× → {b[3] / b[4]:.2f}×' + ('   <- moved' if moved else ''))


if __name__ == '__main__':
    main()
