#!/usr/bin/env python3
"""Cheap evaluation of animated stickers: the per-frame peer once per clip set, ours as often as needed.

The peer of ../shared/eval/clips.py (rembg's U²-Net-p on every frame) is deterministic, so its masks are
computed once per clip set and kept (`peer`); `score` then runs only ours and scores both against the truth.
The metrics, the peer and the frame decoding are clips.py's own functions (taken out of its source by name,
since clips.py runs its whole evaluation when imported), so the figures are clips.py's.

    python3 scripts/clip_eval.py peer CLIPS_DIR CACHE_DIR          # CACHE/NAME.npz: peer alpha of every frame + time
    python3 scripts/clip_eval.py score BIN CLIPS_DIR CACHE_DIR [OUT] [--only c01,c02]

`score` prints per clip and overall IoU, alpha error, flicker and time, ours vs the peer's (the peer's time is
the one measured by `peer`: compare times only when both ran on a similarly loaded machine), and exits 1 when a
no-subject clip does not exit 65 (with nothing written) or a clip with a subject fails.
"""
import argparse, ast, glob, json, os, subprocess, sys, tempfile, time

import numpy as np
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
eval_dir = os.path.normpath(os.path.join(here, '../../shared/eval'))
sys.path.insert(0, eval_dir)


def clips_functions():
    """clips.py's functions (frames_of, rembg_frame, iou, flicker), compiled from its own source."""
    source = open(os.path.join(eval_dir, 'clips.py')).read()
    tree = ast.parse(source)
    wanted = {'frames_of', 'rembg_frame', 'iou', 'flicker', 'one'}
    found = [node for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name in wanted]
    names = {node.name for node in found}
    assert names == wanted, f'clips.py changed: found {names}'
    module = ast.Module(body=found, type_ignores=[])
    space = dict(np=np, Image=Image, subprocess=subprocess)
    exec(compile(module, 'clips.py', 'exec'), space)
    return space


F = clips_functions()


def clip_list(clips):
    for meta_path in sorted(glob.glob(f'{clips}/[a-z][0-9][0-9].json')):
        name = os.path.basename(meta_path)[:-5]
        meta = json.load(open(meta_path))
        clip = next(p for p in glob.glob(f'{clips}/{name}.*') if not p.endswith('.json'))
        yield name, meta, clip


def peer(args):
    import onnxruntime as ort
    import peers
    sess = ort.InferenceSession(peers.u2netp_path(), providers=['CPUExecutionProvider'])
    os.makedirs(args.cache, exist_ok=True)
    for name, meta, clip in clip_list(args.clips):
        target = f'{args.cache}/{name}.npz'
        if not meta['subject'] or os.path.exists(target):
            continue
        w, h = meta['size']
        t = time.perf_counter()
        fr = F['frames_of'](clip, w, h)
        masks = [F['rembg_frame'](fr[k], sess) for k in range(len(fr))]
        seconds = time.perf_counter() - t
        # rembg_frame's alpha is an 8-bit image / 255: kept exactly as uint8.
        stack = np.stack([np.rint(m * 255).astype(np.uint8) for m in masks])
        assert all(np.array_equal(stack[k].astype(np.float32) / 255, masks[k]) for k in range(len(masks)))
        np.savez_compressed(target, masks=stack, seconds=seconds)
        print(f'{name}: {len(masks)} frames, peer {seconds:.1f} s', flush=True)


def score(args):
    out = args.out or tempfile.mkdtemp(prefix='clip-eval-')
    only = set(args.only.split(',')) if args.only else None
    rows, short, ours_t, peer_t = [], [], 0.0, 0.0
    for name, meta, clip in clip_list(args.clips):
        if only and name not in only:
            continue
        w, h = meta['size']
        mdir = f'{out}/{name}.masks'
        os.makedirs(mdir, exist_ok=True)
        for old in glob.glob(f'{mdir}/*.png'):
            os.remove(old)
        sticker = f'{out}/{name}.webp'
        if os.path.exists(sticker):
            os.remove(sticker)
        t = time.perf_counter()
        p = subprocess.run([args.binary, 'sticker', clip, '-o', sticker, '--mask', mdir], capture_output=True, timeout=900)
        dt = time.perf_counter() - t
        written = glob.glob(f'{mdir}/*.png') + ([sticker] if os.path.exists(sticker) else [])
        if not meta['subject']:
            verdict = 'refused (65), nothing written' if p.returncode == 65 and not written else f'exit {p.returncode}, {len(written)} files'
            print(f'{name} (no subject): {verdict}, {dt * 1000:.0f} ms', flush=True)
            if p.returncode != 65 or written:
                short.append(f'{name} (no subject): {verdict}, want 65 and nothing written')
            continue
        if p.returncode != 0:
            short.append(f'{name}: sticker exit {p.returncode} {F["one"](p.stderr.decode(errors="replace"))}')
            print(short[-1], flush=True)
            continue
        used = sorted(int(os.path.basename(f)[:4]) for f in glob.glob(f'{mdir}/[0-9][0-9][0-9][0-9].png'))
        truth = {k: np.asarray(Image.open(f'{args.clips}/{name}/{k:04d}.mask.png'), np.float32) / 255 for k in used}
        ours = {k: np.asarray(Image.open(f'{mdir}/{k:04d}.png').convert('L'), np.float32) / 255 for k in used}
        cached = np.load(f'{args.cache}/{name}.npz')
        peer_masks = {k: cached['masks'][k].astype(np.float32) / 255 for k in used}
        ours_t += dt
        peer_t += float(cached['seconds'])
        # clips.py's flicker reads `used` and `truth` from its surroundings.
        F['used'], F['truth'] = used, truth
        iou = F['iou']
        r = dict(name=name, frames=len(used), of=meta['frames'],
                 iou=float(np.mean([iou(ours[k], truth[k]) for k in used])), piou=float(np.mean([iou(peer_masks[k], truth[k]) for k in used])),
                 err=float(np.mean([np.abs(ours[k] - truth[k]).mean() for k in used])),
                 perr=float(np.mean([np.abs(peer_masks[k] - truth[k]).mean() for k in used])),
                 fl=F['flicker'](ours), pfl=F['flicker'](peer_masks), ms=dt * 1000, pms=float(cached['seconds']) * 1000)
        rows.append(r)
        print(f"{name}: {r['frames']}/{r['of']} frames, IoU {r['iou']:.3f} vs peer {r['piou']:.3f}, err {r['err']:.4f} vs {r['perr']:.4f} "
              f"({r['err'] / r['perr']:.2f}x), flicker {r['fl']:.4f} vs {r['pfl']:.4f} ({r['fl'] / r['pfl']:.2f}x), "
              f"{r['ms']:.0f} ms vs {r['pms']:.0f} ms", flush=True)
    if rows:
        m = {k: float(np.mean([r[k] for r in rows])) for k in ('iou', 'piou', 'err', 'perr', 'fl', 'pfl')}
        print(f"{len(rows)} clips: IoU {m['iou']:.3f} vs per-frame peer {m['piou']:.3f}, alpha error {m['err']:.4f} vs {m['perr']:.4f} "
              f"({m['err'] / m['perr']:.2f}x), flicker {m['fl']:.4f} vs {m['pfl']:.4f} ({m['fl'] / m['pfl']:.2f}x), "
              f"time {ours_t:.1f}s vs {peer_t:.1f}s ({ours_t / max(peer_t, 1e-9):.2f}x)")
    if short:
        print('; '.join(short))
        sys.exit(1)


parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
sub = parser.add_subparsers(dest='command', required=True)
p = sub.add_parser('peer')
p.add_argument('clips'); p.add_argument('cache')
s = sub.add_parser('score')
s.add_argument('binary'); s.add_argument('clips'); s.add_argument('cache'); s.add_argument('out', nargs='?')
s.add_argument('--only')
args = parser.parse_args()
peer(args) if args.command == 'peer' else score(args)
