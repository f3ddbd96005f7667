#!/usr/bin/env python3
"""Writes the small ONNX models the model-check tests load (Tests/StickerKitTests/Fixtures/models).

Each is something a user might point STICKERS_MODEL at by mistake, or the smallest network with a
saliency network's shapes. Needs `pip install onnx numpy`; the outputs are committed, so the tests
do not need it.
"""
import os
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "StickerKitTests", "Fixtures", "models")


def save(name, nodes, inputs, outputs, initializers=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)], producer_name="stickers-tests")
    model.ir_version = 6
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(OUT, name + ".onnx"))


def tensor(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = np.random.default_rng(7)
    photo = tensor("photo", [1, 3, 64, 64])
    # Returns the photo itself: three channels where one saliency map belongs.
    save("identity", [helper.make_node("Identity", ["photo"], ["same"])], [photo], [tensor("same", [1, 3, 64, 64])])
    # One number per photo: a 64×64 convolution over the whole frame.
    w = numpy_helper.from_array(rng.standard_normal((1, 3, 64, 64)).astype(np.float32) * 0.01, "w")
    save("one-by-one", [helper.make_node("Conv", ["photo", "w"], ["score"], kernel_shape=[64, 64])],
         [photo], [tensor("score", [1, 1, 1, 1])], [w])
    # The right shapes: a 1×1 convolution to one channel, then a sigmoid.
    w1 = numpy_helper.from_array(np.array([[[[1.0]], [[0.5]], [[-1.0]]]], dtype=np.float32), "w1")
    save("tiny-saliency", [helper.make_node("Conv", ["photo", "w1"], ["logits"]),
                           helper.make_node("Sigmoid", ["logits"], ["saliency"])],
         [photo], [tensor("saliency", [1, 1, 64, 64])], [w1])
    # Right input, output shape left symbolic: caught on the first run instead.
    save("symbolic-output", [helper.make_node("Identity", ["photo"], ["same"])],
         [photo], [tensor("same", ["n", "c", "h", "w"])])
    # An operator the executor does not run.
    save("unsupported-operator", [helper.make_node("Softmax", ["photo"], ["soft"], axis=1)],
         [photo], [tensor("soft", [1, 3, 64, 64])])


if __name__ == "__main__":
    main()
