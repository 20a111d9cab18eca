"""The dev set over real documents: `../shared/corpus` read by the product's own extractors and chunker into
a `HybridIndex`, and the questions of `scripts/data/corpus_questions.jsonl` asked of it.

How the questions were made (before any score was computed): on-topic ones were written from the
documents, each with the place its answer stands (file and page, slide, sheet or section), in the
document's language, worded as a user asks rather than copied from the text; off-topic ones are
questions no document answers, half of them sharing words with the vault ("rust", "python", "penguins",
"rules", "capital", "Prüfungen", "Raum") and eleven in German. The split was fixed in the file before any
run: within each document (on-topic) and each group (off-topic, sharing words or not), questions
alternate tuning, test, tuning, … Tuning uses only the tuning half; figures are reported on the test
half.

Extraction runs once per file (OCR of the scans takes a while) and is cached under data/cache/ by the
file's SHA-256, the extractor's source and the chunk size.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from backend.ingest.chunk import chunk_units
from backend.ingest.extract import extract_document
from backend.retrieval.hybrid import HybridIndex
from backend.retrieval.types import IndexedBlock
from scripts.shared_data import CORPUS

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "scripts" / "data" / "corpus_questions.jsonl"
CACHE = ROOT / "data" / "cache"
CHUNK_SIZE = 1000  # QUIRE_CHUNK_SIZE's default
Embed = Callable[[Sequence[str]], np.ndarray]


@dataclass(frozen=True)
class Question:
    id: str
    half: str  # tuning | test
    on_topic: bool
    text: str
    file: str | None  # the document that answers it (on-topic)


def questions(path: Path = QUESTIONS) -> list[Question]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Question(r["id"], r["half"], r["topic"] == "on", r["question"], r.get("file")) for r in rows]


def _fingerprint(path: Path) -> str:
    digest = hashlib.sha256(path.read_bytes())
    for source in sorted((ROOT / "backend" / "ingest").rglob("*.py")):
        digest.update(source.read_bytes())
    digest.update(str(CHUNK_SIZE).encode())
    return digest.hexdigest()[:20]


def blocks_of(entry: dict[str, object], corpus: Path = CORPUS) -> list[dict[str, object]]:
    """The file's blocks (text, page, section, kind), extracted and chunked as ingestion does, cached."""
    path = corpus / str(entry["file"])
    cached = CACHE / f"devset-{path.name}-{_fingerprint(path)}.json"
    if cached.exists():
        loaded: list[dict[str, object]] = json.loads(cached.read_text(encoding="utf-8"))
        return loaded
    result = extract_document(path, str(entry["format"]))  # type: ignore[arg-type]
    rows = [{"text": c.text, "page": c.page, "section": c.section, "kind": c.kind}
            for c in chunk_units(result.units, CHUNK_SIZE)]
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    return rows


def corpus_blocks(corpus: Path = CORPUS) -> dict[str, list[IndexedBlock]]:
    """Every corpus file's blocks, by file name (the document's id)."""
    entries = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))["files"]
    out: dict[str, list[IndexedBlock]] = {}
    for entry in entries:
        doc = str(entry["file"])
        out[doc] = [IndexedBlock(id=f"{doc}#{i}", document_id=doc, filename=doc, category=None, ordinal=i,
                                 page=row["page"], section=row["section"], kind=str(row["kind"]),  # type: ignore[arg-type]
                                 text=str(row["text"]))
                    for i, row in enumerate(blocks_of(entry, corpus))]
    return out


def index_of(documents: dict[str, list[IndexedBlock]], embed: Embed | None, **options: Any) -> HybridIndex:
    """These documents as one vault, with vectors from `embed` (None: keywords only); `options` are
    `HybridIndex`'s (none: the shipped one)."""
    index = HybridIndex(**options)
    index.replace_documents(documents)
    if embed is not None:
        blocks = [b for bl in documents.values() for b in bl]
        index.set_embeddings([b.id for b in blocks], embed([b.text for b in blocks]))
    return index


def corpus_index(embed: Embed | None, corpus: Path = CORPUS, **options: Any) -> HybridIndex:
    """Every corpus file as a document of blocks, in one vault (see `index_of`)."""
    return index_of(corpus_blocks(corpus), embed, **options)


def standin_embedder(dimension: int = 64) -> Embed:
    """The stand-in model server's hashed bag-of-words embeddings (tests/support/fake_ollama.py)."""
    from tests.support.fake_ollama import hash_embedding

    def embed(texts: Sequence[str]) -> np.ndarray:
        return np.asarray([hash_embedding(t, dimension, {}) for t in texts], dtype=np.float32)

    return embed
