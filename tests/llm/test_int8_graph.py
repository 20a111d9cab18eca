"""The install-time 8-bit rewrite (backend/llm/int8_graph.py) on a small encoder-shaped graph, run by
onnxruntime as the built-in model is: every weight product is rewritten, the outputs stay close to fp32's
for each token, a token with activations hundreds of times larger than the others (mpnet's sentence
markers) does not flatten its neighbours, and a row of zeros stays zeros."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime
from onnx import TensorProto, helper, numpy_helper

from backend.llm.int8_graph import rewrite_int8

BATCH, TOKENS, WIDTH, HIDDEN = 3, 7, 48, 96


def _encoder(rng: np.random.Generator) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    """x (batch × tokens × width) → MatMul, Add bias, Relu, MatMul: two weight products, as in a feed-forward
    block, plus a product of two inputs (attention's scores) that must stay as it is."""
    weights = {"w1": rng.normal(0, 0.2, (WIDTH, HIDDEN)).astype(np.float32),
               "b1": rng.normal(0, 0.1, (HIDDEN,)).astype(np.float32),
               "w2": rng.normal(0, 0.2, (HIDDEN, WIDTH)).astype(np.float32)}
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h0"]), helper.make_node("Add", ["h0", "b1"], ["h1"]),
             helper.make_node("Relu", ["h1"], ["h2"]), helper.make_node("MatMul", ["h2", "w2"], ["y"]),
             helper.make_node("Transpose", ["x"], ["xt"], perm=[0, 2, 1]),
             helper.make_node("MatMul", ["x", "xt"], ["scores"])]
    graph = helper.make_graph(
        nodes, "encoder", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "tokens", WIDTH])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", "tokens", WIDTH]),
         helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["batch", "tokens", "tokens"])],
        [numpy_helper.from_array(v, k) for k, v in weights.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), weights


def _run(model: onnx.ModelProto, x: np.ndarray) -> list[np.ndarray]:
    session = onnxruntime.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return list(session.run(None, {"x": x}))


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = a.reshape(-1, a.shape[-1]), b.reshape(-1, b.shape[-1])
    return np.asarray((a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)))


def test_weight_products_run_in_8_bits_and_stay_close_to_fp32_per_token() -> None:
    rng = np.random.default_rng(7)
    model, weights = _encoder(rng)
    x = rng.normal(0, 1, (BATCH, TOKENS, WIDTH)).astype(np.float32)
    # A marker token, as in mpnet: with its scale (one per tensor) every other token here rounds to zeros.
    x[0, 0] *= 400.0
    x[1, 3] = 0.0
    reference = np.maximum(x @ weights["w1"] + weights["b1"], 0) @ weights["w2"]

    assert rewrite_int8(model) == 2
    ops = [node.op_type for node in model.graph.node]
    assert ops.count("MatMulIntegerToFloat") == 2
    assert ops.count("MatMul") == 1  # the scores: no constant weight matrix
    assert {"w1", "w2"}.isdisjoint(init.name for init in model.graph.initializer)  # no fp32 copy kept

    y, scores = _run(model, x)
    assert y.shape == reference.shape
    assert np.isfinite(y).all()  # the zero row too: its scale is kept above 0
    assert _cosines(y, reference).min() > 0.999
    np.testing.assert_allclose(scores, x @ x.transpose(0, 2, 1), rtol=1e-5, atol=1e-2)

