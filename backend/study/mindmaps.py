"""Mind maps: a tree generated from passages across the scope, its saved layout, and recorded exports.

The model fills a fixed-depth schema (central topic → 3–7 branches → sub-branches [→ details]), so the
requested depth (2 or 3) is honoured by construction; deeper nesting a model adds anyway is ignored.
The schema states the limits (3–7 branches, at most 6 children); surplus branches and children are cut
(mechanical repairs, reported). Labels are cut to 60 characters at a word boundary; empty nodes are
dropped. A tree with fewer than
three branches, or that never reaches the requested depth, gets the one stricter retry every
single-object generation gets. Nodes have stable ids (`n0` the centre, `n2.1` the first child of the
second branch) which the saved positions refer to.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from backend.errors import NotFound, QuireError, found
from backend.progress.events import Activity
from backend.store import mindmaps as store
from backend.store.db import Connection, Database
from backend.study import jobs
from backend.study.generation import cited_ids, closest, fitted_prompt, generate_object, resolve_ids
from backend.study.passages import Passage
from backend.study.repairs import Report, cut
from backend.study.schemas import GenerateRequest, JobOut, ScopeOut, SourceOut
from backend.study.scopes import as_scope, scope_params

LABEL_CHARS = 60
MIN_BRANCHES, MAX_BRANCHES, MAX_CHILDREN = 3, 7, 6
MINDMAP_PASSAGES = 14
MINDMAP_ANSWER_TOKENS = 1800


class Leaf(BaseModel):
    label: str = Field(max_length=300)
    source_block_ids: list[str] = cited_ids(6)


class Twig(Leaf):
    children: list[Leaf] = Field(default_factory=list, max_length=MAX_CHILDREN)


class BranchOfTwo(Leaf):
    children: list[Leaf] = Field(default_factory=list, max_length=MAX_CHILDREN)


class BranchOfThree(Leaf):
    children: list[Twig] = Field(default_factory=list, max_length=MAX_CHILDREN)


class MapOfTwo(BaseModel):
    central: str = Field(min_length=1, max_length=300)
    branches: list[BranchOfTwo] = Field(min_length=MIN_BRANCHES, max_length=MAX_BRANCHES)


class MapOfThree(BaseModel):
    central: str = Field(min_length=1, max_length=300)
    branches: list[BranchOfThree] = Field(min_length=MIN_BRANCHES, max_length=MAX_BRANCHES)


class MindmapRequest(GenerateRequest):
    depth: Literal[2, 3] = 2


class MindNode(BaseModel):
    id: str
    label: str
    sources: list[SourceOut]
    children: list[MindNode]


class Position(BaseModel):
    x: float
    y: float


class LayoutIn(BaseModel):
    layout: Literal["LR", "TB"]
    positions: dict[str, Position] = Field(default_factory=dict, max_length=2000)


ExportFormat = Literal["png", "pdf", "markdown"]


class ExportIn(BaseModel):
    format: ExportFormat


class ExportOut(BaseModel):
    mindmap_id: str
    format: ExportFormat
    exported_at: datetime


class MindmapSummary(BaseModel):
    id: str
    title: str
    depth: int
    node_count: int
    layout: Literal["LR", "TB"]
    scope: ScopeOut
    exports: int
    created_at: datetime
    updated_at: datetime


class MindmapOut(MindmapSummary):
    root: MindNode
    positions: dict[str, Position]


def short_label(text: str) -> str:
    """At most 60 characters, cut at a word boundary with an ellipsis."""
    text = " ".join(str(text).split())
    if len(text) <= LABEL_CHARS:
        return text
    cut = text[: LABEL_CHARS - 1]
    if " " in cut[LABEL_CHARS // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:-") + "…"


# -- generation ----------------------------------------------------------------------------------------
def start(study: jobs.StudyJobs, request: MindmapRequest) -> JobOut:
    params = {"scope": scope_params(study.db, request.scope), "depth": request.depth}
    return study.submit("mindmap", params, request.client_token)


def run(drafting: jobs.Drafting, params: dict[str, Any], job_id: str) -> jobs.Saver:
    depth = params["depth"]
    passages = drafting.scope_passages(as_scope(params["scope"]), MINDMAP_PASSAGES)
    model: type[MapOfTwo | MapOfThree] = MapOfTwo if depth == 2 else MapOfThree
    prompt, passages = fitted_prompt(drafting.llm, drafting.prompts, "mindmap", passages, MINDMAP_ANSWER_TOKENS,
                                     depth=depth, min_branches=MIN_BRANCHES, max_branches=MAX_BRANCHES)
    report = Report()
    try:
        draft = generate_object(drafting.llm, prompt, model, "mind map", report, check=lambda m: _problem(m, depth),
                                repair=repair_map)
    finally:
        jobs.record_report(drafting.db, job_id, report)
    root = _tree(draft, passages)
    mindmap = {"id": jobs.artifact_id(job_id), "title": root["label"], "depth": depth, "tree": root,
               "scope": params["scope"], "job_id": job_id}

    def save(conn: Connection) -> str:
        store.insert_mindmap(conn, mindmap)
        return str(mindmap["id"])

    return save


def repair_map(raw: Any, report: Report) -> Any:
    """Mechanical fixes: blank nodes dropped, surplus branches and children cut (at every level)."""
    if not isinstance(raw, dict):
        return raw
    return {**raw, "branches": _trimmed(raw.get("branches"), MAX_BRANCHES, "branches", report)}


def _trimmed(nodes: Any, most: int, what: str, report: Report) -> Any:
    if not isinstance(nodes, list):
        return nodes
    named = [n for n in nodes if isinstance(n, dict) and str(n.get("label", "")).strip()]
    if len(named) < len(nodes):
        report.repaired[f"blank {what} removed"] += 1
    return [{**n, "children": _trimmed(n.get("children", []), MAX_CHILDREN, "children", report)}
            for n in cut(named, most, what, report)]


def _problem(draft: MapOfTwo | MapOfThree, depth: int) -> str | None:
    branches = [b for b in draft.branches if b.label.strip()]
    if not draft.central.strip():
        return "the central topic is empty"
    if len(branches) < MIN_BRANCHES:
        return f"the map has {len(branches)} branches; {MIN_BRANCHES}–{MAX_BRANCHES} are required"
    if _levels(draft.model_dump()["branches"]) < depth:
        return f"the map must be {depth} levels deep below the central topic"
    return None


def _levels(nodes: list[dict[str, Any]]) -> int:
    named = [n for n in nodes if str(n.get("label", "")).strip()]
    return 1 + max((_levels(n.get("children", [])) for n in named), default=0) if named else 0


def _tree(draft: MapOfTwo | MapOfThree, passages: Sequence[Passage]) -> dict[str, Any]:
    branches = [b for b in draft.branches if b.label.strip()][:MAX_BRANCHES]
    root_sources = closest(draft.central, passages, limit=3) or list(passages)
    return {"id": "n0", "label": short_label(draft.central), "sources": [p.source() for p in root_sources],
            "children": _nodes(branches, "n", root_sources, passages)}


def _nodes(items: Sequence[Leaf], prefix: str, parent: Sequence[Passage],
           passages: Sequence[Passage]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for item in (i for i in items if i.label.strip()):
        node_id = f"{prefix}{len(out) + 1}"
        # a node the model did not ground is grounded on what its label shares, else on its parent's passages
        grounded = resolve_ids(item.source_block_ids, passages) or closest(item.label, passages, 1) or list(parent)
        children = _nodes(getattr(item, "children", []), f"{node_id}.", grounded, passages)
        out.append({"id": node_id, "label": short_label(item.label), "sources": [p.source() for p in grounded],
                    "children": children})
    return out


# -- reading, layout, exports --------------------------------------------------------------------------
def _count(node: dict[str, Any]) -> int:
    return 1 + sum(_count(child) for child in node["children"])


def _ids(node: dict[str, Any]) -> set[str]:
    return {node["id"]}.union(*(_ids(child) for child in node["children"]))


def _row(db: Database, mindmap_id: str) -> store.MindmapRow:
    return found(store.get_mindmap(db, mindmap_id), "Mind map", mindmap_id)


def _summary(row: store.MindmapRow) -> dict[str, Any]:
    return {**row, "node_count": _count(row["tree"])}


def list_mindmaps(db: Database) -> list[MindmapSummary]:
    return [MindmapSummary.model_validate(_summary(row)) for row in store.list_mindmaps(db)]


def get_mindmap(db: Database, mindmap_id: str) -> MindmapOut:
    row = _row(db, mindmap_id)
    return MindmapOut.model_validate({**_summary(row), "root": row["tree"]})


def delete_mindmap(db: Database, mindmap_id: str) -> None:
    if not store.delete_mindmap(db, mindmap_id):
        raise NotFound("Mind map", mindmap_id)


def save_layout(db: Database, mindmap_id: str, layout: LayoutIn) -> MindmapOut:
    unknown = sorted(set(layout.positions) - _ids(_row(db, mindmap_id)["tree"]))
    if unknown:
        raise QuireError("unknown_nodes", f"No such nodes in this map: {', '.join(unknown[:5])}.", 422,
                         details={"node_ids": unknown})
    store.set_layout(db, mindmap_id, layout.layout, layout.model_dump()["positions"])
    return get_mindmap(db, mindmap_id)


def reset_layout(db: Database, mindmap_id: str) -> MindmapOut:
    _row(db, mindmap_id)
    store.set_layout(db, mindmap_id, "LR", {})
    return get_mindmap(db, mindmap_id)


def record_export(db: Database, activity: Activity, mindmap_id: str, fmt: ExportFormat) -> ExportOut:
    """The UI renders PNG/PDF itself; this records that an export happened (a `mindmap_export` event)."""
    _row(db, mindmap_id)
    row = store.add_export(db, mindmap_id, fmt)
    activity.record("mindmap_export", ref=f"mindmap:{mindmap_id}")
    return ExportOut(mindmap_id=mindmap_id, format=fmt, exported_at=row["created_at"])
