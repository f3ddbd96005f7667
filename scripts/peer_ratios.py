#!/usr/bin/env python3
"""Issue 37's three speed ratios in one run, interleaved so the machine's drift falls on both sides:

  sticker  one `stickers sticker IMG -o OUT --mask MASK` process per photo, against rembg's own U²-Net-p
           pipeline in a warm ONNX Runtime session (peers.py, decode included), per photo;
  make     one `stickers make FOLDER --no-cache` over all the photos (cold cache), per photo, against
           the same rembg figure;
  palette  one `stickers palette IMG -n N --format json` process per photo, against Pillow's fast
           octree in-process (peers.py's own call, decode included), n = 5 and 8.

Wall and CPU time (ours: the child process's; the peers': this process's), medians per photo over
the rounds, then means over photos and the ratios. Prints the load average before and after: on a
busy 2-core machine wall ratios mostly measure the scheduler, CPU ratios stay comparable.

    python3 scripts/peer_ratios.py [--rounds N] [--eval DIR] BIN
"""
import argparse, glob, os, shutil, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument('--rounds', type=int, default=3)
parser.add_argument('--eval', default=os.path.join(here, '../../shared/eval'))
parser.add_argument('binary')
args = parser.parse_args()
eval_dir = os.path.abspath(args.eval)
evalset = os.path.join(eval_dir, '../evalset')
binary = os.path.abspath(args.binary)
sys.path.insert(0, eval_dir)
import peers  # noqa: E402
from PIL import Image  # noqa: E402

photos = sorted(glob.glob(os.path.join(evalset, '*.jpg')))
out = tempfile.mkdtemp(prefix='peer-ratios-')
env = dict(os.environ, XDG_DATA_HOME=os.path.join(out, 'data'), XDG_CACHE_HOME=os.path.join(out, 'cache'))


def child_cpu():
    t = os.times(); return t.children_user + t.children_system


def ours(argv):
    t, tc = time.perf_counter(), child_cpu()
    r = subprocess.run([binary] + argv, capture_output=True, env=env)
    if r.returncode not in (0, 65):  # 65: no clear subject, a valid answer for the no-subject photos
        sys.exit(f'{" ".join(argv[:2])} failed (exit {r.returncode}): {r.stderr.decode()[:300]}')
    return (time.perf_counter() - t) * 1000, (child_cpu() - tc) * 1000


def inprocess(fn):
    t, tc = time.perf_counter(), time.process_time(); fn()
    return (time.perf_counter() - t) * 1000, (time.process_time() - tc) * 1000


def octree(path, n):
    im = peers.load_photo(path); q = im.quantize(colors=n, method=Image.Quantize.FASTOCTREE)
    q.getcolors(n + 1); q.getpalette()


print(f'load average before: {os.getloadavg()}')
peers.rembg_u2netp(photos[0])  # the session is made once, outside the timing
samples = {}  # (what, photo) -> [(wall, cpu), ...]
add = lambda key, v: samples.setdefault(key, []).append(v)
for _ in range(args.rounds):
    for p in photos:
        add(('rembg', p), inprocess(lambda: peers.rembg_u2netp(p)))
        add(('sticker', p), ours(['sticker', p, '-o', os.path.join(out, 's.png'), '--mask', os.path.join(out, 'm.png')]))
        for n in (5, 8):
            add((f'octree{n}', p), inprocess(lambda: octree(p, n)))
            add((f'palette{n}', p), ours(['palette', p, '-n', str(n), '--format', 'json']))
    wall, cpu = ours(['make', *photos, '-o', os.path.join(out, 'pack.zip'), '--no-cache'])
    add(('make', 'all'), (wall / len(photos), cpu / len(photos)))
print(f'load average after: {os.getloadavg()}')


def mean_of_medians(what, group):
    keys = [(what, p) for p in group] if what != 'make' else [('make', 'all')]
    return tuple(statistics.mean(statistics.median(s[i] for s in samples[k]) for k in keys) for i in (0, 1))


rows = [('sticker per process', 'sticker', 'rembg', photos, 0.7),
        ('make, cold cache, per photo', 'make', 'rembg', photos, 0.5),
        ('palette n=5 per process', 'palette5', 'octree5', photos, 0.5),
        ('palette n=8 per process', 'palette8', 'octree8', photos, 0.5)]
print(f'\n{len(photos)} photos, {args.rounds} rounds, {binary}')
print(f'{"":30} {"ours wall/CPU ms":>18} {"peer wall/CPU ms":>18} {"wall ×":>7} {"CPU ×":>7} {"target":>7}')
for label, ours_key, peer_key, group, target in rows:
    (ow, oc), (pw, pc) = mean_of_medians(ours_key, group), mean_of_medians(peer_key, group)
    print(f'{label:30} {ow:8.1f} /{oc:8.1f} {pw:8.1f} /{pc:8.1f} {ow / pw:6.2f}× {oc / pc:6.2f}× {target:6.1f}×')
shutil.rmtree(out, ignore_errors=True)
