"""Push real files through a real Quire server over HTTP and print what became of them.

    python scripts/real_file_campaign.py DIR_OR_FILE... [--batch 4] [--timeout 180] [--json OUT]

How the real-file campaign figures of docs/benchmarks.md are made (there over 323 PDFs and 439 Office files, web
pages, Markdown, CSV and text files from the test suites of public projects' sdists: pikepdf, pypdf,
PyMuPDF, python-docx, python-pptx, python-calamine, trafilatura, ...; the files are not in this repo).
One server (embedded Postgres, the fake model server, as the tests run it) gets every file by upload,
a few at a time, each batch in its own category so same-named files do not meet. For each file:
- its end state: ready, failed (with its message), refused at upload (with its code), or still not
  done after `--timeout` seconds; the time from upload to that state;
- for a ready file: every block through the viewer's API, and the share of a reference reader's
  distinct words that Quire stored (PyMuPDF for PDFs; the XML text of Word's and PowerPoint's main
  parts; openpyxl for workbooks; lxml for web pages; the decoded text otherwise). Below 90 % is listed:
  text lost silently, or words the reference reads that Quire leaves out by design (headers, menus);
- whether a search for three of its words finds it among the first 50 hits;
- any 5xx answer, and the server's log lines holding "Traceback".
Prints the counts, then each file that was not ready, fell below 90 % or met a 5xx.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import statistics
import sys
import tempfile
import time
import unicodedata
import zipfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load PyMuPDF

from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer

WORD = re.compile(r"\w+")
RECALL_BAR = 0.9
TERMINAL = ("ready", "failed")
_PARTS = {  # Office parts a reference reads, and the element holding their text
    "docx": (("word/document.xml", "word/footnotes.xml", "word/endnotes.xml"), "t"),
    "pptx": (("ppt/slides/slide", "ppt/notesSlides/"), "t"),
}


def words(text: str) -> list[str]:
    return WORD.findall(unicodedata.normalize("NFKC", text).casefold())


def _pdf_text(data: bytes) -> str:
    import pymupdf

    pymupdf.TOOLS.mupdf_display_errors(False)  # damaged files are the point here; their errors are noise
    with pymupdf.open(stream=data, filetype="pdf") as document:
        return "" if document.needs_pass else "\n".join(page.get_text() for page in document)


def _office_text(data: bytes, kind: str) -> str:
    from lxml import etree

    prefixes, tag = _PARTS[kind]
    texts = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            if name.endswith(".xml") and name.startswith(prefixes):
                root = etree.fromstring(archive.read(name), etree.XMLParser(huge_tree=True, recover=True))
                if root is not None:
                    texts += [el.text or "" for el in root.iter() if etree.QName(el).localname == tag]
    return " ".join(texts)


def _workbook_text(data: bytes) -> str:
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    return "\n".join(" ".join(str(v) for v in row if v is not None)
                     for sheet in book.worksheets for row in sheet.iter_rows(values_only=True))


def _page_text(data: bytes) -> str:
    import lxml.html

    root = lxml.html.fromstring(data)
    for element in root.xpath("//script|//style|//noscript|//head"):
        element.drop_tree()
    return str(root.text_content())


def _decoded(data: bytes) -> str:
    for encoding in ("utf-8-sig", "utf-16", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def reference_text(path: Path, kind: str) -> str:
    """What another reader finds in the file (see the module's docstring); "" if it cannot read it."""
    data = path.read_bytes()
    readers = {"pdf": _pdf_text, "docx": lambda d: _office_text(d, "docx"), "pptx": lambda d: _office_text(d, "pptx"),
               "xlsx": _workbook_text, "html": _page_text}
    try:
        return readers.get(kind, _decoded)(data)
    except Exception:  # noqa: BLE001 - a file the reference cannot read has no reference, nothing more
        return ""


def stored_text(api: httpx.Client, document_id: str, errors: list[str]) -> str:
    """Every block of the document as the viewer gets it, tables' cells included."""
    texts: list[str] = []
    start = 0
    while True:
        response = api.get(f"/api/documents/{document_id}/blocks", params={"start": start, "limit": 200})
        if response.status_code != 200:
            errors.append(f"blocks {response.status_code}")
            return "\n".join(texts)
        body = response.json()
        for block in body["blocks"]:
            texts.append(block["text"] or "")
            if block.get("table"):
                texts += [" ".join(block["table"]["header"]), *(" ".join(row) for row in block["table"]["rows"])]
        if not body["blocks"] or not body["has_after"]:
            return "\n".join(texts)
        start = body["blocks"][-1]["ordinal"] + 1


def check_ready(api: httpx.Client, record: dict[str, Any], path: Path) -> None:
    errors: list[str] = record["5xx"]
    got = set(words(stored_text(api, record["id"], errors)))
    reference = words(reference_text(path, record["kind"]))
    distinct = set(reference)
    if distinct:
        record["recall"] = round(len(distinct & got) / len(distinct), 3)
    probes = [w for w in reference if len(w) >= 7 and w.isalpha() and w in got]
    if probes:
        phrase = " ".join(probes[len(probes) // 2:][:3])
        response = api.get("/api/search", params={"q": phrase, "k": 50})
        if response.status_code >= 500:
            errors.append(f"search {response.status_code}")
        elif response.status_code == 200:
            record["found"] = record["id"] in {hit["document_id"] for hit in response.json()["hits"]}
    if record["kind"] == "pdf" and record.get("pages"):
        for page in sorted({1, record["pages"]}):
            response = api.get(f"/api/documents/{record['id']}/pages/{page}.png")
            if response.status_code >= 500:
                errors.append(f"page {page} image {response.status_code}")


def run_batch(api: httpx.Client, paths: list[Path], category: str, timeout_s: float) -> list[dict[str, Any]]:
    files = [("files", (path.name, path.read_bytes(), "application/octet-stream")) for path in paths]
    started = time.monotonic()
    response = api.post("/api/documents", files=files, data={"category": category, "on_conflict": "keep_both"})
    if response.status_code != 202:
        error = response.json().get("error", {}) if response.headers.get("content-type", "").startswith(
            "application/json") else {}
        return [{"file": str(p), "state": "refused", "code": error.get("code", str(response.status_code)),
                 "message": error.get("message", response.text[:200]), "5xx": []} for p in paths]
    body = response.json()
    by_name = {p.name: p for p in paths}
    records = [{"file": str(by_name.get(r["filename"], r["filename"])), "state": "refused", "code": r["code"],
                "message": r["message"], "5xx": []} for r in body.get("rejected", [])]
    pending = {d["id"]: {"file": str(by_name.get(d["filename"], d["filename"])), "id": d["id"], "kind": d["kind"],
                         "5xx": []} for d in body["documents"]}
    deadline = started + timeout_s
    while pending and time.monotonic() < deadline:
        for document_id, record in list(pending.items()):
            answer = api.get(f"/api/documents/{document_id}")
            if answer.status_code >= 500:
                record["5xx"].append(f"document {answer.status_code}")
                continue
            document = answer.json()
            if document["status"] in TERMINAL:
                record.update(state=document["status"], message=document["error"], pages=document["pages"],
                              warnings=document["warnings"], seconds=round(time.monotonic() - started, 1))
                records.append(pending.pop(document_id))
        time.sleep(0.3)
    records += [{**record, "state": "timeout"} for record in pending.values()]
    for record in records:
        if record["state"] == "ready":
            check_ready(api, record, Path(record["file"]))
    return records


def report(records: list[dict[str, Any]], tracebacks: int) -> None:
    states = Counter(r["state"] for r in records)
    ready = [r for r in records if r["state"] == "ready"]
    low = [r for r in ready if r.get("recall") is not None and r["recall"] < RECALL_BAR]
    searched = [r for r in ready if "found" in r]
    seconds = [r["seconds"] for r in records if "seconds" in r]
    broken = [r for r in records if r["5xx"]]
    print(f"{len(records)} files: " + ", ".join(f"{n} {state}" for state, n in states.most_common()))
    print(f"5xx answers: {sum(len(r['5xx']) for r in records)} (in {len(broken)} files); "
          f"tracebacks in the server log: {tracebacks}")
    if seconds:
        print(f"upload to end state: median {statistics.median(seconds):.1f} s, max {max(seconds):.1f} s")
    print(f"ready files below {RECALL_BAR:.0%} of the reference's words: {len(low)}; found by a search for "
          f"three of their words: {sum(r['found'] for r in searched)}/{len(searched)}")
    for r in records:
        if r["state"] != "ready" or r in low or r["5xx"]:
            detail = r.get("code") or ""
            if r in low:
                detail = f"{r['recall']:.0%} of the reference's words"
            print(f"  {r['state']:<8} {Path(r['file']).name[:60]:<60} {detail} {(r.get('message') or '')[:110]}"
                  f"{' 5xx: ' + ', '.join(r['5xx']) if r['5xx'] else ''}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, help="files, or folders whose files are all sent")
    parser.add_argument("--batch", type=int, default=4, help="files per upload (default 4)")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds a batch may take (default 180)")
    parser.add_argument("--json", type=Path, help="also write every file's record here")
    args = parser.parse_args(argv)
    files = sorted(f for p in args.paths for f in ([p] if p.is_file() else p.rglob("*")) if f.is_file())
    postgres, model = ThrowawayPostgres(), FakeOllama().start()
    with tempfile.TemporaryDirectory(prefix="quire-campaign-") as data:
        server = QuireServer(postgres.fresh_database(), Path(data), model.url, QUIRE_LOG_LEVEL="WARNING",
                             QUIRE_MAX_UPLOAD_MB="100").start()
        records: list[dict[str, Any]] = []
        try:
            with server.client(timeout=120) as api:
                for n in range(0, len(files), args.batch):
                    records += run_batch(api, files[n:n + args.batch], f"campaign {n // args.batch}", args.timeout)
                    print(f"{len(records)}/{len(files)}", end="\r", file=sys.stderr, flush=True)
        finally:
            server.stop()
            model.stop()
            postgres.close()
        tracebacks = server.log_path.read_text(errors="replace").count("Traceback")
    if args.json:
        args.json.write_text(json.dumps(records, indent=1, default=str))
    report(records, tracebacks)


if __name__ == "__main__":
    main()
