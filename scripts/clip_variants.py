#!/usr/bin/env python3
"""A clip set made again with a small change to every clip, for telling a method that generalises from one
tuned to the exact pixels of a set: the same scenes re-encoded, a little brighter or darker, or mirrored.

    python3 scripts/clip_variants.py SRC_DIR DST_DIR VARIANT

VARIANT: x264 (re-encoded, libx264 crf 23), crf28 (crf 28), bright (+0.03 brightness, crf 23), dark
(−0.03), flip (mirrored left to right; its truth mirrored too). Every clip (GIFs too) becomes DST/NAME.mp4,
its frames one for one (`-fps_mode passthrough`); NAME.json is copied; the truth DST/NAME/NNNN.mask.png is
a link to SRC's (mirrored copies for flip). DST is then a clip set as `scripts/clip_eval.py` and
`../shared/eval/clips.py` read one:

    python3 scripts/clip_variants.py ../shared/evalset-clips /tmp/v-x264 x264
    python3 scripts/clip_eval.py peer /tmp/v-x264 /tmp/v-x264-peer
    python3 scripts/clip_eval.py score .build/release/stickers /tmp/v-x264 /tmp/v-x264-peer
"""
import glob, json, os, shutil, subprocess, sys

from PIL import Image

VARIANTS = {
    'x264': ('null', 23),
    'crf28': ('null', 28),
    'bright': ('eq=brightness=0.03', 23),
    'dark': ('eq=brightness=-0.03', 23),
    'flip': ('hflip', 23),
}


def frame_count(path):
    out = subprocess.run(['ffprobe', '-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries',
                          'stream=nb_read_frames', '-of', 'csv=p=0', path], capture_output=True, text=True, check=True)
    return int(out.stdout.strip().split(',')[0])


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in VARIANTS:
        sys.exit(__doc__)
    source, target, variant = sys.argv[1:]
    video_filter, crf = VARIANTS[variant]
    os.makedirs(target, exist_ok=True)
    for meta_path in sorted(glob.glob(f'{source}/[a-z][0-9][0-9].json')):
        name = os.path.basename(meta_path)[:-5]
        meta = json.load(open(meta_path))
        clip = next(p for p in glob.glob(f'{source}/{name}.*') if not p.endswith('.json'))
        made = f'{target}/{name}.mp4'
        # Even sides for 4:2:0 (the sets' sizes are even already); frames one for one, none added or dropped.
        subprocess.run(['ffmpeg', '-v', 'error', '-y', '-i', clip, '-vf', f'{video_filter},scale=trunc(iw/2)*2:trunc(ih/2)*2',
                        '-fps_mode', 'passthrough', '-c:v', 'libx264', '-crf', str(crf), '-pix_fmt', 'yuv420p', '-an', made],
                       check=True)
        count = frame_count(made)
        if count != meta['frames']:
            print(f'{name}: {count} frames made of {meta["frames"]}', file=sys.stderr)
        shutil.copyfile(meta_path, f'{target}/{name}.json')
        truth = f'{target}/{name}'
        if os.path.islink(truth):
            os.remove(truth)
        elif os.path.isdir(truth):
            shutil.rmtree(truth)
        if variant == 'flip':
            os.makedirs(truth)
            for mask in sorted(glob.glob(f'{source}/{name}/*.mask.png')):
                Image.open(mask).transpose(Image.FLIP_LEFT_RIGHT).save(f'{truth}/{os.path.basename(mask)}')
        elif os.path.isdir(f'{source}/{name}'):
            os.symlink(os.path.abspath(f'{source}/{name}'), truth)
        print(f'{name}: {made} ({count} frames)', flush=True)


main()
