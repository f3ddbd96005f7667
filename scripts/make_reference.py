#!/usr/bin/env python3
"""Reference outputs of U²-Net-p from ONNX Runtime, for the NeuralNet tests.

The input is a formula (ReferenceInput.swift computes the same one) so only outputs are
committed: float32 little-endian .bin files under Tests/NeuralNetTests/Fixtures/.

    pip install onnxruntime onnx numpy
    python3 scripts/make_reference.py [MODEL.onnx]   # default: $STICKERS_MODEL or the model cache
"""
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "NeuralNetTests", "Fixtures")


def model_path():
    if len(sys.argv) > 1:
        return sys.argv[1]
    if os.environ.get("STICKERS_MODEL"):
        return os.environ["STICKERS_MODEL"]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "stickers", "models", "u2netp.onnx")


def reference_input(size):
    """1×3×size×size: a bright disc on a dark ground plus a little integer-pattern texture.
    Every value is computed exactly in float64 and rounded once to float32, as in Swift."""
    x = np.zeros((1, 3, size, size), dtype=np.float64)
    c, y, xx = np.meshgrid(np.arange(3), np.arange(size), np.arange(size), indexing="ij")
    half = size / 2.0
    inside = (xx - half) ** 2 + (y - half) ** 2 < (size / 4.0) ** 2
    texture = ((c * 7 + y * 13 + xx * 29) % 17) / 16.0 - 0.5
    x[0] = np.where(inside, 1.5, -0.5) + 0.25 * texture + (c - 1) * 0.125
    return x.astype(np.float32)


def any_size_model(path):
    """The model with symbolic H and W: the file declares 320×320, but the net is fully
    convolutional and works at any multiple of 32; ONNX Runtime enforces declared sizes."""
    model = onnx.load(path)
    dims = model.graph.input[0].type.tensor_type.shape.dim
    dims[2].dim_param, dims[3].dim_param = "height", "width"
    return model.SerializeToString()


def main():
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    session = ort.InferenceSession(any_size_model(model_path()), options, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    os.makedirs(FIXTURES, exist_ok=True)
    for size, keep in ((64, None), (320, 1)):
        outputs = session.run(None, {name: reference_input(size)})
        for index, output in enumerate(outputs[:keep] if keep else outputs):
            path = os.path.join(FIXTURES, f"u2netp_{size}_out{index}.bin")
            output.astype("<f4").tofile(path)
            print(path, output.shape, float(output.min()), float(output.max()))


if __name__ == "__main__":
    main()
