#!/usr/bin/env python3
"""Would a clip's coarse looks pay on a crop around the subject? Measured offline, on ONNX Runtime.

    python3 scripts/crop_look_check.py [--margin 32] [--step 32] [--lag 2] CLIP...

For each clip (GIF or video, with the truth `scripts/make_clips.py` writes beside it: NAME.json and
NAME/NNNN.mask.png) every used frame is looked at twice by U²-Net-p's 80 px side output (the coarse look
`ClipSubjectTracker` runs): on the whole frame at 320 × 320, and on a crop of that input at the same scale
(no resampling), placed where the look `--lag` frames earlier put the subject, moved on by its motion over
the lag before that (a lane's own previous look: `LookLanes` hands frames out ahead of the tracker), grown
by `--margin` px each side and rounded up to `--step` px. Prints per clip the crop's mean share of the
input (the look's cost goes with it), the two looks' agreement (IoU above ½) and each one's IoU with the
truth, and how far the subject's box moves in five frames (the lanes' lead on the tracker) beyond a
linear prediction from the two boxes before.

Needs `onnx` and `onnxruntime` (PyPI) and the model the app fetched (~/.cache/stickers/models/u2netp.onnx
or --model); the model is given free height and width in a copy under /tmp.
"""
import argparse, glob, json, os, subprocess, sys

import numpy as np
from PIL import Image

MEAN = np.array([0.485, 0.456, 0.406], np.float32)[:, None, None]
STD = np.array([0.229, 0.224, 0.225], np.float32)[:, None, None]
COARSE_OUTPUT = 3


def free_shaped(model):
    import onnx
    m = onnx.load(model)
    for value in list(m.graph.input) + list(m.graph.output):
        dims = value.type.tensor_type.shape.dim
        dims[2].dim_param, dims[3].dim_param = 'H', 'W'
    del m.graph.value_info[:]
    path = '/tmp/u2netp-free-shape.onnx'
    onnx.save(m, path)
    return path


def frames(clip, size, step):
    if clip.endswith('.gif'):
        image, out = Image.open(clip), []
        try:
            while True:
                out.append(np.asarray(image.convert('RGB')))
                image.seek(image.tell() + 1)
        except EOFError:
            pass
        return out
    width, height = size
    raw = subprocess.run(['ffmpeg', '-v', 'quiet', '-i', clip, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
                         capture_output=True, check=True).stdout
    return list(np.frombuffer(raw, np.uint8).reshape(-1, height, width, 3)[::step])


def box(plane):
    ys, xs = np.nonzero(plane > 0.5)
    return None if len(xs) == 0 else np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], np.float32)


def iou(a, b):
    union = (a | b).sum()
    return (a & b).sum() / union if union else 1.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('clips', nargs='+')
    parser.add_argument('--margin', type=int, default=32)
    parser.add_argument('--step', type=int, default=32)
    parser.add_argument('--lag', type=int, default=2)
    parser.add_argument('--model', default=os.path.expanduser('~/.cache/stickers/models/u2netp.onnx'))
    args = parser.parse_args()
    import onnxruntime as ort
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    session = ort.InferenceSession(free_shaped(args.model), options)
    name = session.get_inputs()[0].name

    def look(x):
        return session.run(None, {name: x[None]})[COARSE_OUTPUT][0, 0]

    for clip in args.clips:
        base = os.path.splitext(clip)[0]
        meta = json.load(open(base + '.json'))
        if not meta.get('subject'):
            continue
        truths = sorted(glob.glob(base + '/*.mask.png'))
        # Videos of 30 fps are used at every other frame (the maker's 15 fps), GIFs at every frame.
        step = 1 if clip.endswith('.gif') or meta.get('fps', 15) <= 15 else 2
        seen = frames(clip, meta['size'], step)
        whole, cropped, shares, boxes = [], [], [], []
        for k, frame in enumerate(seen):
            image = np.asarray(Image.fromarray(frame).resize((320, 320), Image.BOX), np.float32) / 255
            x = (((image.transpose(2, 0, 1) / max(image.max(), 1e-6)) - MEAN) / STD).astype(np.float32)
            full = look(x)
            whole.append(full)
            boxes.append(box(full))
            lag = args.lag
            if k >= 2 * lag and boxes[k - lag] is not None and boxes[k - 2 * lag] is not None:
                last, before = boxes[k - lag], boxes[k - 2 * lag]
                ahead = last + (last - before)
                low, high = np.minimum(last, ahead), np.maximum(last, ahead)
                x0, y0, x1, y1 = low[0] - args.margin, low[1] - args.margin, high[2] + args.margin, high[3] + args.margin
                w = min(320, int(np.ceil((x1 - x0) / args.step)) * args.step)
                h = min(320, int(np.ceil((y1 - y0) / args.step)) * args.step)
                left = int(round(min(max((x0 + x1 - w) / 2, 0), 320 - w)))
                top = int(round(min(max((y0 + y1 - h) / 2, 0), 320 - h)))
                pasted = np.zeros((320, 320), np.float32)
                pasted[top:top + h, left:left + w] = look(np.ascontiguousarray(x[:, top:top + h, left:left + w]))
                cropped.append(pasted)
                shares.append(w * h / 320 / 320)
            else:
                cropped.append(full)
                shares.append(1.0)
        truth = [np.asarray(Image.open(truths[k * step]).convert('L').resize((320, 320), Image.BOX)) > 127
                 for k in range(len(seen)) if k * step < len(truths)]
        agree = [iou(a > 0.5, b > 0.5) for a, b in zip(whole, cropped)]
        true_boxes = [box(t.astype(np.float32)) for t in truth]
        beyond = [max(0, *(np.array([p[0] - c[0], p[1] - c[1], c[2] - p[2], c[3] - p[3]])))
                  for a, b, c in zip(true_boxes, true_boxes[1:], true_boxes[6:])
                  if a is not None and b is not None and c is not None
                  for p in [b + (b - a) * 5]]
        print(f"{os.path.basename(clip)}: {len(seen)} frames, crop {np.mean(shares):.2f} of the input, "
              f"agreement IoU {np.mean(agree):.3f} (min {np.min(agree):.3f}), truth IoU whole "
              f"{np.mean([iou(a > 0.5, t) for a, t in zip(whole, truth)]):.3f} crop "
              f"{np.mean([iou(a > 0.5, t) for a, t in zip(cropped, truth)]):.3f}, box beyond a linear guess "
              f"5 frames on: p90 {np.percentile(beyond, 90):.0f} px" if beyond else "", flush=True)


if __name__ == '__main__':
    sys.exit(main())
