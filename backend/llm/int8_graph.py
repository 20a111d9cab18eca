"""Rewrite an fp32 ONNX encoder into one whose weight matrix products run in 8-bit integers, per token.

Used once at install time by backend/llm/onnx_export.py (needs the `onnx` package, not at run time).
Every MatMul whose second input is a constant weight matrix W (K × N) becomes:

    s_x = max|x| / 127 for each token's row x (its own scale),  q_x = round(x / s_x) + 128  (uint8)
    q_W = round(W / s_W) with s_W = max|W[:, n]| / 127 for each output column n  (int8)
    y   = MatMulInteger(q_x, q_W, zero point 128) · s_x · s_W

Why not onnxruntime's `quantize_dynamic`: it gives one scale to the whole activation tensor. In mpnet a
few tokens (the sentence markers) carry activations hundreds of times larger than the rest, so with one
scale every other token is rounded to a handful of levels: measured on Cranfield passages, per-tensor
vectors had a cosine of 0.65–0.89 with fp32 mpnet's (per-channel weights or 7-bit weights did not
help; SmoothQuant's channel smoothing neither), the per-token form here 0.995. The extra element-wise
work per token (abs, max, divide, round) is K operations against K·N of the product.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

_LEVELS = 127.0  # symmetric: q_x in 1..255 around the zero point 128, q_W in -127..127
_ZERO_POINT = "int8_x_zero_point"
_LEVELS_NAME = "int8_levels"
_SHIFT = "int8_shift"
_TINY = "int8_tiny"


def quantise_weights(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 codes, float32 scale per output column) of a K × N weight matrix."""
    scale = np.maximum(np.abs(weights).max(axis=0), 1e-12).astype(np.float32) / np.float32(_LEVELS)
    codes = np.clip(np.rint(weights / scale), -_LEVELS, _LEVELS).astype(np.int8)
    return codes, scale


def _integer_product(prefix: str, x: str, y: str) -> list[onnx.NodeProto]:
    p = prefix
    return [
        helper.make_node("Abs", [x], [f"{p}_abs"]),
        helper.make_node("ReduceMax", [f"{p}_abs"], [f"{p}_max"], keepdims=1, axes=[-1]),
        helper.make_node("Div", [f"{p}_max", _LEVELS_NAME], [f"{p}_s0"]),
        helper.make_node("Max", [f"{p}_s0", _TINY], [f"{p}_s"]),  # an all-zero row keeps a usable scale
        helper.make_node("Div", [x, f"{p}_s"], [f"{p}_xs"]),
        helper.make_node("Round", [f"{p}_xs"], [f"{p}_xr"]),
        helper.make_node("Add", [f"{p}_xr", _SHIFT], [f"{p}_xo"]),
        helper.make_node("Cast", [f"{p}_xo"], [f"{p}_xq"], to=TensorProto.UINT8),
        helper.make_node("MatMulInteger", [f"{p}_xq", f"{p}_wq", _ZERO_POINT], [f"{p}_yi"]),
        helper.make_node("Cast", [f"{p}_yi"], [f"{p}_yf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", [f"{p}_yf", f"{p}_s"], [f"{p}_y1"]),
        helper.make_node("Mul", [f"{p}_y1", f"{p}_ws"], [y]),
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
        codes, scale = quantise_weights(numpy_helper.to_array(constants[node.input[1]]).astype(np.float32))
        added += [numpy_helper.from_array(codes, f"{prefix}_wq"), numpy_helper.from_array(scale, f"{prefix}_ws")]
        replaced.add(node.input[1])
        nodes += _integer_product(prefix, node.input[0], node.output[0])
    added += [numpy_helper.from_array(np.array(128, np.uint8), _ZERO_POINT),
              numpy_helper.from_array(np.array(_LEVELS, np.float32), _LEVELS_NAME),
              numpy_helper.from_array(np.array(128.0, np.float32), _SHIFT),
              numpy_helper.from_array(np.array(1e-12, np.float32), _TINY)]
    kept = [init for init in graph.initializer if init.name not in replaced or _still_used(init.name, nodes)]
    del graph.initializer[:]
    graph.initializer.extend(kept + added)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    return len(replaced)


def _still_used(name: str, nodes: list[onnx.NodeProto]) -> bool:
    return any(name in node.input for node in nodes)
