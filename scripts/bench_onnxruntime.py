#!/usr/bin/env python3
"""Times ONNX Runtime on U²-Net-p, for `stickers-bench inference` (which launches this script so
both figures print in one run) or by hand:

    pip install onnxruntime numpy
    python3 scripts/bench_onnxruntime.py MODEL.onnx [--size 320] [--threads 1 2] [--iterations 10]

Prints one line per thread count: `threads=N samples_ms=a,b,c,...`.
"""
import argparse
import time

import numpy as np
import onnxruntime as ort


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--size", type=int, default=320)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--iterations", type=int, default=10)
    args = parser.parse_args()
    # The same deterministic image-like input the Swift benchmark uses (a disc plus texture).
    c, y, x = np.meshgrid(np.arange(3), np.arange(args.size), np.arange(args.size), indexing="ij")
    half = args.size / 2.0
    inside = (x - half) ** 2 + (y - half) ** 2 < (args.size / 4.0) ** 2
    texture = ((c * 7 + y * 13 + x * 29) % 17) / 16.0 - 0.5
    data = (np.where(inside, 1.5, -0.5) + 0.25 * texture + (c - 1) * 0.125)[None].astype(np.float32)
    for threads in args.threads:
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        session = ort.InferenceSession(args.model, options, providers=["CPUExecutionProvider"])
        name = session.get_inputs()[0].name
        session.run(None, {name: data})
        samples = []
        for _ in range(args.iterations):
            start = time.perf_counter()
            session.run(None, {name: data})
            samples.append((time.perf_counter() - start) * 1000)
        print(f"threads={threads} samples_ms=" + ",".join(f"{s:.3f}" for s in samples), flush=True)


if __name__ == "__main__":
    main()
