"""Streaming multipart reader for uploads: each file goes straight to a temp file while it is hashed
and measured, and a file over the size limit stops being written the moment it crosses the limit
(Starlette's own form parser would spool the whole body first). A whole request over its own limit
(declared by Content-Length, or counted as it arrives) is refused with 413 `request_too_large`, and
every file already received from it is deleted: one upload is kept whole or not at all.

A part is a file when its Content-Disposition names one. RFC 7578 asks clients for a plain `filename`,
and python-multipart reads only that; some clients (.NET's HttpClient, older urllib3) also or only send
the RFC 5987 form `filename*=UTF-8''...`, with the plain one then MIME-encoded (`=?utf-8?B?...?=`) or
absent. Those are read here too, the extended form first, so such a file is neither dropped as a form
field nor stored under an encoded name."""

from __future__ import annotations

import base64
import binascii
import hashlib
import quopri
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING
from urllib.parse import unquote_to_bytes

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header
from starlette.concurrency import run_in_threadpool
from starlette.requests import ClientDisconnect, Request

from backend.errors import QuireError

if TYPE_CHECKING:  # python-multipart declares its callbacks type for type checkers only
    from python_multipart.multipart import MultipartCallbacks

MAX_FILES = 1000
MAX_FIELD_BYTES = 16 * 1024
# Form fields are held in memory: an upload has two (category, on_conflict); this bounds a body of
# thousands of them (each up to MAX_FIELD_BYTES) to half a megabyte.
MAX_FIELDS = 32
_EXTENDED_FILENAME = re.compile(r";\s*filename\*\s*=\s*\"?([^;\"]*)", re.IGNORECASE)
_NAME_CHARSETS = frozenset({"utf-8", "utf8", "iso-8859-1", "latin-1", "latin1", "us-ascii", "ascii",
                            "windows-1252", "cp1252"})
_ENCODED_WORD = re.compile(r"=\?([^?]+)\?([bBqQ])\?([^?]*)\?=")


def part_filename(disposition: bytes, options: dict[bytes, bytes]) -> str | None:
    """The file name a part's Content-Disposition gives (None: the part is a form field)."""
    extended = _EXTENDED_FILENAME.search(disposition.decode("latin-1"))
    if extended:
        charset, _, rest = extended.group(1).partition("'")
        _language, _, encoded = rest.partition("'")
        return _decode_name(unquote_to_bytes(encoded), charset)
    if b"filename" not in options:
        return None
    name = options[b"filename"].decode("utf-8", "replace")
    return _ENCODED_WORD.sub(_decode_word, name) if name.startswith("=?") else name


def _decode_name(raw: bytes, charset: str) -> str:
    """A name's bytes in its declared charset, if that is one names come in (RFC 5987 asks for UTF-8 and
    ISO-8859-1); anything else is read as UTF-8: a client-chosen codec such as `idna` or `punycode`
    would raise instead of replacing what it cannot decode."""
    codec = charset.strip().lower()
    return raw.decode(codec if codec in _NAME_CHARSETS else "utf-8", "replace")


def _decode_word(match: re.Match[str]) -> str:
    """One RFC 2047 encoded word (`=?utf-8?B?w7xiZXIubWQ=?=`) as text; left as it is when malformed."""
    charset, encoding, payload = match.groups()
    try:
        raw = (base64.b64decode(payload, validate=True) if encoding in "bB"
               else quopri.decodestring(payload.encode("latin-1"), header=True))
    except (ValueError, binascii.Error):
        return match.group(0)
    return _decode_name(raw, charset)


@dataclass
class ReceivedFile:
    field: str
    filename: str
    path: Path
    size: int = 0
    sha256: str = ""
    too_large: bool = False


@dataclass
class ReceivedForm:
    fields: dict[str, str] = field(default_factory=dict)
    files: list[ReceivedFile] = field(default_factory=list)

    def discard(self) -> None:
        for received in self.files:
            received.path.unlink(missing_ok=True)


class _FormSink:
    """Callbacks for python-multipart's streaming parser."""

    def __init__(self, dest_dir: Path, max_file_bytes: int) -> None:
        self.dest_dir = dest_dir
        self.max_file_bytes = max_file_bytes
        self.form = ReceivedForm()
        self._headers: dict[bytes, bytes] = {}
        self._header_field = b""
        self._header_value = b""
        self._file: ReceivedFile | None = None
        self._handle: IO[bytes] | None = None
        self._hash = hashlib.sha256()
        self._field_name: str | None = None
        self._field_value = bytearray()
        self._fields_seen = 0

    def callbacks(self) -> MultipartCallbacks:
        return {
            "on_part_begin": self._part_begin,
            "on_header_field": lambda d, s, e: setattr(self, "_header_field", self._header_field + d[s:e]),
            "on_header_value": lambda d, s, e: setattr(self, "_header_value", self._header_value + d[s:e]),
            "on_header_end": self._header_end,
            "on_headers_finished": self._headers_finished,
            "on_part_data": self._part_data,
            "on_part_end": self._part_end,
        }

    def _part_begin(self) -> None:
        self._headers, self._file, self._field_name = {}, None, None
        self._field_value = bytearray()

    def _header_end(self) -> None:
        self._headers[self._header_field.lower()] = self._header_value
        self._header_field, self._header_value = b"", b""

    def _headers_finished(self) -> None:
        disposition = self._headers.get(b"content-disposition", b"")
        _, options = parse_options_header(disposition)
        name = options.get(b"name", b"").decode("utf-8", "replace")
        filename = part_filename(disposition, options)
        if filename is None:
            self._fields_seen += 1
            if self._fields_seen > MAX_FIELDS:
                raise QuireError("too_many_fields", f"At most {MAX_FIELDS} form fields per upload.", 413)
            self._field_name = name
            return
        if len(self.form.files) >= MAX_FILES:
            raise QuireError("too_many_files", f"At most {MAX_FILES} files per upload.", 413)
        path = self.dest_dir / f".upload-{uuid.uuid4().hex}"
        self._file = ReceivedFile(name, filename, path)
        self.form.files.append(self._file)
        self._handle = path.open("wb")
        self._hash = hashlib.sha256()

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        piece = data[start:end]
        if self._file is None:
            self._field_value += piece
            if len(self._field_value) > MAX_FIELD_BYTES:
                raise QuireError("field_too_large", f"Form field {self._field_name!r} is too long.", 413)
            return
        if self._file.too_large:
            return
        self._file.size += len(piece)
        if self._file.size > self.max_file_bytes:
            self._file.too_large = True
            self.close_file()
            self._file.path.unlink(missing_ok=True)
            return
        self._hash.update(piece)
        assert self._handle is not None
        self._handle.write(piece)

    def _part_end(self) -> None:
        if self._file is not None:
            self.close_file()
            self._file.sha256 = self._hash.hexdigest()
        elif self._field_name is not None:
            self.form.fields[self._field_name] = self._field_value.decode("utf-8", "replace")

    def close_file(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None


def _request_too_large(max_request_bytes: int) -> QuireError:
    limit = f"{max_request_bytes // (1024 * 1024)} MB" if max_request_bytes >= 1024 * 1024 else "the limit"
    return QuireError("request_too_large", f"This upload is larger than {limit} in all; nothing of it was kept. "
                      "Upload the files in smaller groups.", 413, details={"limit_bytes": max_request_bytes})


async def receive_multipart(request: Request, dest_dir: Path, max_file_bytes: int,
                            max_request_bytes: int) -> ReceivedForm:
    content_type, options = parse_options_header(request.headers.get("content-type", ""))
    boundary = options.get(b"boundary")
    if content_type != b"multipart/form-data" or not boundary:
        raise QuireError("unsupported_media_type", "Send the files as multipart/form-data.", 415)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_request_bytes:
        raise _request_too_large(max_request_bytes)  # before a byte of it is read
    dest_dir.mkdir(parents=True, exist_ok=True)
    sink = _FormSink(dest_dir, max_file_bytes)
    parser = MultipartParser(boundary, sink.callbacks())
    received = 0
    try:
        async for chunk in request.stream():
            received += len(chunk)
            if received > max_request_bytes:  # no (or an untruthful) Content-Length: counted as it comes
                raise _request_too_large(max_request_bytes)
            await run_in_threadpool(parser.write, chunk)
        parser.finalize()
    except (QuireError, ClientDisconnect):
        sink.close_file()
        sink.form.discard()
        raise
    except MultipartParseError as exc:
        sink.close_file()
        sink.form.discard()
        raise QuireError("malformed_upload", "The upload body is not valid multipart/form-data.", 400) from exc
    return sink.form
