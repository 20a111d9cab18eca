"""The documents API over real HTTP: uploads (accepted and rejected per file), listing, categories,
the original file, recategorising and deleting."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from pathlib import Path

import httpx

from tests.conftest import SHARED_UPLOAD_LIMIT_MB
from tests.support.documents import Para, make_docx, make_encrypted_pdf, make_pdf, make_zip_bomb
from tests.support.vault import ingest, upload, wait_for_run

Unique = Callable[[str], str]


def _docs_by_name(api: httpx.Client) -> dict[str, dict]:
    return {doc["filename"]: doc for doc in api.get("/api/documents").json()}


def test_upload_of_mixed_formats_ingests_each_file(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "a.pdf", ["Krebs cycle overview", "Electron transport chain details"]).read_bytes()
    docx = make_docx(tmp_path / "b.docx", [Para("Glycolysis happens in the cytoplasm.")]).read_bytes()
    names = [unique("cells.pdf"), unique("glyco.docx"), unique("notes.md"), unique("plain.txt")]
    files = dict(zip(names, [pdf, docx, b"# Heading\n\nMitosis has four phases.", b"Meiosis halves chromosomes."],
                     strict=True))
    category = unique("Biology")
    ingest(api, files, category=category)
    docs = _docs_by_name(api)
    for name in names:
        doc = docs[name]
        assert doc["status"] == "ready"
        assert doc["category"] == category
        assert doc["blocks"] >= 1
        assert doc["embedded_fraction"] == 1.0
    assert docs[names[0]]["pages"] == 2
    assert {"name": category, "documents": 4} in api.get("/api/categories").json()
    assert len(api.get("/api/documents", params={"category": category}).json()) == 4


def test_rejected_files_are_listed_while_the_others_proceed(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    good = unique("good.md")
    response = upload(api, {
        good: b"# Fine\n\nA perfectly good file.",
        unique("fake.pdf"): b"this is not a pdf at all",
        unique("empty.txt"): b"",
        unique("program.exe"): b"MZ\x90\x00binary",
        unique("locked.pdf"): make_encrypted_pdf(tmp_path / "locked.pdf").read_bytes(),
        unique("bomb.docx"): make_zip_bomb(tmp_path / "bomb.docx").read_bytes(),
    })
    assert response.status_code == 202, response.text
    body = response.json()
    assert [doc["filename"] for doc in body["documents"]] == [good]
    codes = sorted(item["code"] for item in body["rejected"])
    assert codes == sorted(["content_mismatch", "empty_file", "unsupported_type", "pdf_encrypted", "zip_bomb"])
    assert all(item["message"] for item in body["rejected"])
    assert wait_for_run(api, body["workflow_id"])["status"] == "SUCCESS"


def test_all_rejected_is_a_4xx_with_every_reason(api: httpx.Client, unique: Unique) -> None:
    response = upload(api, {unique("a.pdf"): b"nope", unique("b.txt"): b""})
    assert response.status_code in (400, 415)
    error = response.json()["error"]
    assert error["code"] in {"content_mismatch", "empty_file"}
    assert {item["code"] for item in error["details"]} == {"content_mismatch", "empty_file"}


def test_oversize_file_is_refused_and_others_accepted(api: httpx.Client, unique: Unique) -> None:
    big = b"a" * (SHARED_UPLOAD_LIMIT_MB * 1024 * 1024 + 10)
    small = unique("small.txt")
    response = upload(api, {unique("big.txt"): big, small: b"small but fine"})
    assert response.status_code == 202
    assert response.json()["rejected"][0]["code"] == "too_large"
    assert [d["filename"] for d in response.json()["documents"]] == [small]


def test_hostile_names_are_sanitised_or_refused(api: httpx.Client, unique: Unique) -> None:
    target = unique("passwd.md")
    response = upload(api, {f"../../etc/{target}": b"# x\n\ntraversal attempt", "...": b"dots only",
                            f"a\x07b{unique('c.md')}": b"control chars"})
    assert response.status_code == 202, response.text
    names = {doc["filename"] for doc in response.json()["documents"]}
    assert target in names
    assert all("/" not in name and "\x07" not in name for name in names)
    assert [r["code"] for r in response.json()["rejected"]] == ["invalid_filename"]


def test_original_file_is_served_safely(api: httpx.Client, unique: Unique, tmp_path: Path) -> None:
    pdf_name, html_name = unique("slides.pdf"), unique("page.html")
    docs = ingest(api, {
        pdf_name: make_pdf(tmp_path / "s.pdf", ["Page one text here"]).read_bytes(),
        html_name: b"<html><body><article><h1>Title</h1><p>Body text of the article is here.</p>"
                   b"<script>alert(1)</script></article></body></html>",
    })
    pdf = api.get(f"/api/documents/{docs[pdf_name]['id']}/file")
    assert pdf.status_code == 200
    assert pdf.headers["content-type"] == "application/pdf"
    assert pdf.headers["content-disposition"].startswith("inline")
    assert pdf.content.startswith(b"%PDF")
    html = api.get(f"/api/documents/{docs[html_name]['id']}/file")
    assert html.headers["content-disposition"].startswith("attachment")
    assert html.headers["content-type"].startswith("text/plain")
    assert html.headers["content-security-policy"] == "sandbox"
    assert html.headers["x-content-type-options"] == "nosniff"


def test_category_change_and_delete(api: httpx.Client, unique: Unique) -> None:
    name = unique("zebra.md")
    doc = ingest(api, {name: b"# Zebras\n\nZebras have black and white stripes called quaggafolds."})[name]
    patched = api.patch(f"/api/documents/{doc['id']}", json={"category": "  Animals  "})
    assert patched.status_code == 200
    assert patched.json()["category"] == "Animals"
    hits = api.get("/api/search", params={"q": "quaggafolds", "categories": "Animals"}).json()["hits"]
    assert [h["document_id"] for h in hits][:1] == [doc["id"]]
    trashed = api.delete(f"/api/documents/{doc['id']}")
    assert trashed.status_code == 200
    assert trashed.json()["status"] == "trashed"
    assert trashed.json()["trashed_at"]
    assert doc["id"] not in {d["id"] for d in api.get("/api/documents").json()}
    after = api.get("/api/search", params={"q": "quaggafolds zebras stripes"}).json()["hits"]
    assert doc["id"] not in {h["document_id"] for h in after}
    assert api.get("/api/search", params={"q": "quaggafolds", "mode": "sparse"}).json()["hits"] == []
    assert api.delete(f"/api/documents/{doc['id']}", params={"permanent": "true"}).status_code == 204
    assert api.get(f"/api/documents/{doc['id']}").status_code == 404
    assert api.delete(f"/api/documents/{doc['id']}").status_code == 404


def test_bad_requests_get_json_errors(api: httpx.Client) -> None:
    cases = [
        api.get("/api/documents/not-a-uuid"),
        api.get("/api/documents/00000000-0000-0000-0000-000000000000"),
        api.patch("/api/documents/00000000-0000-0000-0000-000000000000", json={"category": "x"}),
        api.patch("/api/documents/00000000-0000-0000-0000-000000000000", content=b"{not json",
                  headers={"content-type": "application/json"}),
        api.post("/api/documents", content=b"plain", headers={"content-type": "text/plain"}),
        api.post("/api/documents", files=[]),
        api.post("/api/documents/url", json={"url": ""}),
        api.get("/api/ingest/does-not-exist"),
        api.get("/api/search", params={"q": ""}),
        api.get("/api/search", params={"q": "x", "k": 0}),
        api.get("/api/search", params={"q": "x" * 1001}),
        api.get("/api/search", params={"q": "x", "documents": "00000000-0000-0000-0000-000000000000"}),
        api.get("/api/search", params={"q": "x", "mode": "psychic"}),
        api.get("/api/no-such-endpoint"),
    ]
    for response in cases:
        assert 400 <= response.status_code < 500, (response.request.url, response.status_code, response.text)
        error = response.json()["error"]
        assert error["code"], response.text
        assert error["message"], response.text


def test_upload_of_a_zip_named_docx_without_word_part_is_refused(api: httpx.Client, unique: Unique) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not an office document")
    response = upload(api, {unique("fake.docx"): buffer.getvalue()})
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "content_mismatch"
