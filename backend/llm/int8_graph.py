"""Rewrite an fp32 ONNX encoder into one whose weight matrix products run in 8-bit integers, per token.

Used once at install time by backend/llm/onnx_export.py (needs the `onnx` package, not at run time).
Every MatMul whose second input is a constant weight matrix W (K × N) becomes, over the input x seen as
M = (batch · tokens) rows of K:

    s_x = max|x| / 127 for each token's row x (its own scale),  q_x = round(x / s_x) + 128  (uint8)
    q_W = round(W / s_W) with s_W = max|W[:, n]| / 127 for each output column n  (int8)
    y   = (q_x − 128) · q_W · s_x · s_W

Why not onnxruntime's `quantize_dynamic`: it gives one scale to the whole activation tensor. In mpnet a
few tokens (the sentence markers) carry activations hundreds of times larger than the rest, so with one
scale every other token is rounded to a handful of levels: measured on Cranfield passages, per-tensor
vectors had a cosine of 0.65–0.89 with fp32 mpnet's (per-channel weights or 7-bit weights did not
help; SmoothQuant's channel smoothing neither), the per-token form here 0.995.

The rounding is one `QuantizeLinear` along the rows (a scale per row), and the product, its conversion to
float and both scales are one `MatMulIntegerToFloat` (an onnxruntime operator, `com.microsoft` domain,
which takes the row scales as an M × 1 column). Written out instead as element-wise operators (divide,
round, shift, cast; cast, two multiplies), the extra passes over each input and output took half the
time of a pass through mpnet, more than the integer products themselves (scripts/bench_embed.py).
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import helper, numpy_helper

_LEVELS = 127.0  # symmetric: q_x in 1..255 around the zero point 128, q_W in -127..127
_ZERO_POINT = "int8_x_zero_point"
_LEVELS_NAME = "int8_levels"
_TINY = "int8_tiny"
_AXIS_1 = "int8_axis_1"
_FIRST = "int8_first"
_LAST = "int8_last"
_ONNXRUNTIME_DOMAIN = "com.microsoft"


def quantise_weights(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 codes, float32 scale per output column) of a K × N weight matrix."""
    scale = np.maximum(np.abs(weights).max(axis=0), 1e-12).astype(np.float32) / np.float32(_LEVELS)
    codes = np.clip(np.rint(weights / scale), -_LEVELS, _LEVELS).astype(np.int8)
    return codes, scale


def _integer_product(prefix: str, x: str, y: str) -> list[onnx.NodeProto]:
    p = prefix
    node = helper.make_node
    return [
        node("Shape", [x], [f"{p}_shape"]),
        node("Reshape", [x, f"{p}_rows_of_k"], [f"{p}_x"]),  # M × K
        node("Abs", [f"{p}_x"], [f"{p}_abs"]),
        node("ReduceMax", [f"{p}_abs"], [f"{p}_max"], keepdims=0, axes=[-1]),
        node("Div", [f"{p}_max", _LEVELS_NAME], [f"{p}_s0"]),
        node("Max", [f"{p}_s0", _TINY], [f"{p}_s"]),  # an all-zero row keeps a usable scale
        node("Shape", [f"{p}_s"], [f"{p}_rows"]),
        node("Expand", [_ZERO_POINT, f"{p}_rows"], [f"{p}_zp"]),
        node("QuantizeLinear", [f"{p}_x", f"{p}_s", f"{p}_zp"], [f"{p}_xq"], axis=0),
        node("Unsqueeze", [f"{p}_s", _AXIS_1], [f"{p}_s_column"]),  # M × 1
        node("MatMulIntegerToFloat", [f"{p}_xq", f"{p}_wq", f"{p}_s_column", f"{p}_ws", _ZERO_POINT],
             [f"{p}_y"], domain=_ONNXRUNTIME_DOMAIN),
        # Back to x's leading dimensions, with W's columns last.
        node("Slice", [f"{p}_shape", _FIRST, _LAST, _FIRST], [f"{p}_lead"]),
        node("Concat", [f"{p}_lead", f"{p}_columns"], [f"{p}_out_shape"], axis=0),
        node("Reshape", [f"{p}_y", f"{p}_out_shape"], [y]),
    ]


def rewrite_int8(model: onnx.ModelProto) -> int:
    """Rewrite `model` in place (see the module docstring); returns how many products were rewritten."""
    graph = model.graph
    constants = {init.name: init for init in graph.initializer}
    nodes: list[onnx.NodeProto] = []
    added: list[onnx.TensorProto] = []
    replaced: set[str] = set()
    for number, node in enumerate(graph.node):
        if node.op_type != "MatMul" or node.input[1] not in constants:
            nodes.append(node)
            continue
        prefix = f"int8_{number}"
        weights = numpy_helper.to_array(constants[node.input[1]]).astype(np.float32)
        codes, scale = quantise_weights(weights)
        rows, columns = weights.shape
        added += [numpy_helper.from_array(codes, f"{prefix}_wq"), numpy_helper.from_array(scale, f"{prefix}_ws"),
                  numpy_helper.from_array(np.array([-1, rows], np.int64), f"{prefix}_rows_of_k"),
                  numpy_helper.from_array(np.array([columns], np.int64), f"{prefix}_columns")]
        replaced.add(node.input[1])
        nodes += _integer_product(prefix, node.input[0], node.output[0])
    added += [numpy_helper.from_array(np.array(128, np.uint8), _ZERO_POINT),
              numpy_helper.from_array(np.array(_LEVELS, np.float32), _LEVELS_NAME),
              numpy_helper.from_array(np.array(1e-12, np.float32), _TINY),
              numpy_helper.from_array(np.array([1], np.int64), _AXIS_1),
              numpy_helper.from_array(np.array([0], np.int64), _FIRST),
              numpy_helper.from_array(np.array([-1], np.int64), _LAST)]
    kept = [init for init in graph.initializer if init.name not in replaced or _still_used(init.name, nodes)]
    del graph.initializer[:]
    graph.initializer.extend(kept + added)
    del graph.node[:]
    graph.node.extend(nodes)
    if replaced and not any(o.domain == _ONNXRUNTIME_DOMAIN for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid(_ONNXRUNTIME_DOMAIN, 1))
    onnx.checker.check_model(model)
    return len(replaced)


def _still_used(name: str, nodes: list[onnx.NodeProto]) -> bool:
    return any(name in node.input for node in nodes)
