// ONNX model reading and CPU graph execution (issue 12).
