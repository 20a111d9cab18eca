"""Uploads whose names do not say (or say wrongly) what they are, over real HTTP to a real server, on real
files from `../shared/corpus`: a Word document named `.doc`, a workbook and a slide deck without an
extension, a PDF named `.txt`, Markdown and a web page without an extension. Each is read as what its
bytes are, under the name it was given; the answer, the run and the library say how it was read; its
words are found where the corpus manifest puts them; the viewer shows it in its own form; the download
is the original bytes with the content type of what it is. An old binary Word file is refused with the
"save it as .docx" hint. And a whole upload request over its limit is refused while it streams, with
nothing of it kept."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.corpus import CORPUS, contains, manifest, where_matches
from tests.support.documents import make_pdf
from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.vault import ingest, upload, wait_for_run

Unique = Callable[[str], str]

_MIME = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
# (corpus file, the name it is uploaded under, what it must be read as, what the answer must say)
CASES = [
    ("docling-word-sample.docx", "duck-report.doc", "docx", "Read as a Word document: its name says .doc."),
    ("readxl-deaths.xlsx", "deaths", "xlsx", "Read as an Excel workbook: its name has no extension."),
    ("federal-register-2020-17221.pdf", "faa-rule.txt", "pdf", "Read as a PDF: its name says .txt."),
    ("py4e-02-expressions.pptx", "expressions", "pptx",
     "Read as a PowerPoint presentation: its name has no extension."),
]
OLE_WORD_FILE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1024)  # the signature every binary .doc starts with


def _entry(file: str) -> dict[str, Any]:
    return next(entry for entry in manifest() if entry["file"] == file)


@pytest.fixture(scope="module")
def read_by_content(quire: QuireServer, fake_ollama_server: FakeOllama) -> dict[str, Any]:
    """The corpus files of CASES (and a Markdown file and a web page without extension, and an old .doc)
    uploaded in one request under names unique to this module; the answer and the run's end."""
    token = uuid.uuid4().hex[:6]
    names = {file: name.replace(".", f"-{token}.") if "." in name else f"{name}-{token}" for file, name, _, _ in CASES}
    markdown, page, old = f"ownership-{token}", f"mozilla-{token}", f"thesis-{token}.doc"
    files = {names[file]: (CORPUS / file).read_bytes() for file in names}
    files[markdown] = (CORPUS / "rust-book-ch04-01-ownership.md").read_bytes()
    files[page] = (CORPUS / "wikipedia-mozilla.html").read_bytes()
    files[old] = OLE_WORD_FILE
    with quire.client() as api:
        response = upload(api, files)
        assert response.status_code == 202, response.text
        body = response.json()
        run = wait_for_run(api, body["workflow_id"], timeout_s=180)
    assert run["status"] == "SUCCESS", run
    return {"names": names, "markdown": markdown, "page": page, "old": old, "body": body, "run": run}


def test_files_are_read_as_what_their_bytes_are_and_the_answer_says_so(api: httpx.Client,
                                                                      read_by_content: dict[str, Any]) -> None:
    names, body, run = read_by_content["names"], read_by_content["body"], read_by_content["run"]
    accepted = {doc["filename"]: doc for doc in body["documents"]}
    in_run = {doc["filename"]: doc for doc in run["documents"]}
    for file, _, kind, said in CASES:
        name = names[file]
        assert (accepted[name]["kind"], accepted[name]["read_as"]) == (kind, said), name  # the name kept as given
        assert (in_run[name]["kind"], in_run[name]["read_as"]) == (kind, said)  # the run's view says the same
        document = api.get(f"/api/documents/{accepted[name]['id']}").json()
        assert (document["filename"], document["status"], document["kind"], document["read_as"]) == \
            (name, "ready", kind, said)
        assert document["blocks"] > 0
    text_doc = accepted[read_by_content["markdown"]]
    assert (text_doc["kind"], text_doc["read_as"]) == ("txt", "Read as plain text: its name has no extension.")
    web_page = accepted[read_by_content["page"]]
    assert (web_page["kind"], web_page["read_as"]) == ("html", "Read as a web page: its name has no extension.")
    # The old binary Word file is refused with what to do instead; the others are not held up by it.
    [refused] = body["rejected"]
    assert (refused["filename"], refused["code"]) == (read_by_content["old"], "unsupported_type")
    assert "save it as .docx" in refused["message"]
    assert read_by_content["old"] not in {doc["filename"] for doc in api.get("/api/documents").json()}


def test_their_words_are_found_where_the_corpus_says(api: httpx.Client, read_by_content: dict[str, Any]) -> None:
    ids = {doc["filename"]: doc["id"] for doc in read_by_content["body"]["documents"]}
    misses = []
    for file, _, kind, _ in CASES:
        document_id = ids[read_by_content["names"][file]]
        for probe in _entry(file)["probes"]:
            hits = api.get("/api/search", params={"q": probe["text"], "k": 10, "documents": document_id,
                                                  "mode": "sparse"}).json()["hits"]
            placed = [hit for hit in hits
                      if contains(hit["text"], probe["text"]) and where_matches(probe["where"], hit)]
            if not placed or placed[0]["document_kind"] != kind:
                misses.append((file, probe, [(hit["page"], hit["section"], hit["document_kind"]) for hit in hits]))
    for name, file in ((read_by_content["markdown"], "rust-book-ch04-01-ownership.md"),
                       (read_by_content["page"], "wikipedia-mozilla.html")):
        for probe in _entry(file)["probes"]:
            hits = api.get("/api/search", params={"q": probe["text"], "k": 10, "documents": ids[name],
                                                  "mode": "sparse"}).json()["hits"]
            if not any(contains(hit["text"], probe["text"]) for hit in hits):
                misses.append((file, probe, []))
    assert not misses, misses


def test_the_viewer_and_the_download_follow_the_content(api: httpx.Client, read_by_content: dict[str, Any]) -> None:
    ids = {doc["filename"]: doc["id"] for doc in read_by_content["body"]["documents"]}
    for file, _, kind, _ in CASES:
        name = read_by_content["names"][file]
        outline = api.get(f"/api/documents/{ids[name]}/outline").json()
        assert (outline["filename"], outline["kind"]) == (name, kind)
        original = api.get(f"/api/documents/{ids[name]}/file")
        assert original.status_code == 200
        assert original.content == (CORPUS / file).read_bytes()
        assert original.headers["content-type"] == _MIME[kind]
        disposition = original.headers["content-disposition"]
        assert disposition.startswith("inline" if kind == "pdf" else "attachment")
        assert f'filename="{name}"' in disposition  # the user's own name, not a renamed one
    pdf_id = ids[read_by_content["names"]["federal-register-2020-17221.pdf"]]
    assert api.get(f"/api/documents/{pdf_id}/outline").json()["pages"] == 15
    page = api.get(f"/api/documents/{pdf_id}/pages/6.png")
    assert (page.status_code, page.headers["content-type"]) == (200, "image/png")
    deck_id = ids[read_by_content["names"]["py4e-02-expressions.pptx"]]
    assert api.get(f"/api/documents/{deck_id}/outline").json()["pages"] == 34
    slide = api.get(f"/api/documents/{deck_id}/blocks", params={"page": 29}).json()["blocks"]
    assert any(contains(block["text"], "Later we will deal with bad input data") for block in slide)
    sheet_id = ids[read_by_content["names"]["readxl-deaths.xlsx"]]
    tables = [block["table"] for block in api.get(f"/api/documents/{sheet_id}/blocks").json()["blocks"]]
    assert {table["sheet"] for table in tables if table} == {"arts", "other"}
    # A web page read by its content stays inert: its original is never served as HTML.
    html = api.get(f"/api/documents/{ids[read_by_content['page']]}/file")
    assert html.headers["content-type"].startswith("text/plain")
    assert html.headers["content-disposition"].startswith("attachment")


def test_an_old_binary_word_file_alone_is_refused_with_the_hint(api: httpx.Client, unique: Unique) -> None:
    response = upload(api, {unique("thesis.doc"): OLE_WORD_FILE, f"minutes-{uuid.uuid4().hex[:6]}": OLE_WORD_FILE})
    assert response.status_code == 415, response.text
    error = response.json()["error"]
    assert error["code"] == "unsupported_type"
    assert all("save it as .docx" in item["message"] for item in error["details"]), error["details"]


# ---------------------------------------------------------------- the whole request's size

LIMIT_MB = 1


@pytest.fixture
def small_request_server(server_factory: Callable[..., QuireServer]) -> QuireServer:
    return server_factory(QUIRE_MAX_UPLOAD_REQUEST_MB=str(LIMIT_MB))


def _stored_anything(server: QuireServer, api: httpx.Client) -> list[str]:
    """What the server kept: documents, recorded refusals, originals in its cache, files mid-upload."""
    docs = server.data_dir / "docs"
    kept = [doc["filename"] for doc in api.get("/api/documents").json()]
    kept += [refusal["filename"] for refusal in api.get("/api/refusals").json()["refusals"]]
    kept += [str(path) for path in (docs / "objects").rglob("*") if path.is_file()]
    kept += [str(path) for path in (docs / ".pending").glob("*")]
    return kept


def test_a_request_over_the_limit_is_refused_and_nothing_of_it_kept(small_request_server: QuireServer) -> None:
    # Three files of 0.4 MB each: every one under the per-file limit, together over the request's 1 MB.
    part = b"# Chapter\n\n" + b"Photosynthesis turns light into sugar. " * 10_000
    files = {f"chapter-{n}.md": part for n in range(3)}
    with small_request_server.client() as api:
        response = upload(api, files)  # with a Content-Length: refused before the body is read
        assert response.status_code == 413, response.text
        error = response.json()["error"]
        assert error["code"] == "request_too_large"
        assert "1 MB" in error["message"]
        assert _stored_anything(small_request_server, api) == []

        # Without a Content-Length (chunked): the first files arrive whole before the limit is passed,
        # and still nothing of the request is kept.
        boundary = "quire-sniff-boundary"

        def body() -> Iterator[bytes]:
            for name, data in files.items():
                yield (f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\n'
                       f"Content-Type: text/markdown\r\n\r\n").encode()
                for start in range(0, len(data), 64 * 1024):
                    yield data[start:start + 64 * 1024]
                    time.sleep(0.002)
                yield b"\r\n"
            yield f"--{boundary}--\r\n".encode()

        streamed = api.post("/api/documents", content=body(),
                            headers={"content-type": f"multipart/form-data; boundary={boundary}"})
        assert streamed.status_code == 413, streamed.text
        assert streamed.json()["error"]["code"] == "request_too_large"
        assert _stored_anything(small_request_server, api) == []

        # Under the limit, the same server takes the files.
        accepted = upload(api, {"chapter-0.md": part, "chapter-1.md": part})
        assert accepted.status_code == 202, accepted.text
        assert wait_for_run(api, accepted.json()["workflow_id"])["status"] == "SUCCESS"


def test_a_new_version_may_be_another_kind(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    # The same name first holds a Word document, then a PDF: each version is read, viewed and downloaded
    # as what its own bytes are.
    name = unique("minutes.doc")
    word = (CORPUS / "docling-word-sample.docx").read_bytes()
    first = ingest(api, {name: word})[name]
    pdf = make_pdf(tmp_path / "m.pdf", ["Minutes of the second meeting: the telescope budget was approved."])
    second = ingest(api, {name: pdf.read_bytes()}, on_conflict="replace")[name]
    document_id = first["id"]
    assert second["id"] == document_id
    assert (first["kind"], second["kind"]) == ("docx", "pdf")
    document = api.get(f"/api/documents/{document_id}").json()
    assert (document["filename"], document["kind"], document["versions"]) == (name, "pdf", 2)
    assert document["read_as"] == "Read as a PDF: its name says .doc."
    kinds = {v["version"]: v["kind"] for v in api.get(f"/api/documents/{document_id}/versions").json()["versions"]}
    assert kinds == {1: "docx", 2: "pdf"}
    old = api.get(f"/api/documents/{document_id}/versions/1/file")
    assert (old.content, old.headers["content-type"]) == (word, _MIME["docx"])
    new = api.get(f"/api/documents/{document_id}/file")
    assert (new.content, new.headers["content-type"]) == (pdf.read_bytes(), _MIME["pdf"])
    assert api.get(f"/api/documents/{document_id}/outline").json()["kind"] == "pdf"
    hits = api.get("/api/search", params={"q": "telescope budget approved", "documents": document_id,
                                          "mode": "sparse"}).json()["hits"]
    assert [(hit["page"], hit["document_kind"]) for hit in hits][:1] == [(1, "pdf")]
