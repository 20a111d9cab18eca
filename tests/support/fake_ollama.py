"""A fake Ollama server speaking Ollama's HTTP wire protocol on 127.0.0.1, scripted per test.

The product's real `ollama` client talks to it over real HTTP. Chat replies come from a queue
(`script(...)`) or a responder function (`respond_with(...)`, for concurrent tests), otherwise — for a
model added with a simulating `Behaviour` (tests/support/fake_model.py) — from the simulated small model,
otherwise a plain default answer. Embeddings are deterministic bag-of-words hashes (optionally with
synonym folding), so dense retrieval behaves sensibly in tests. Every request is recorded for assertions.

Like Ollama, it answers `/api/show` with each model's capabilities and context length, refuses `think`
and `tools` a model lacks with a 400, sends no line while it "reads" a prompt, and cuts a prompt longer
than the request's `num_ctx` (4,096 when it names none; tokens counted as characters / 4): the oldest
messages go first (the system prompt and the last message stay), then the front of what is left — each
cut logged in `truncations` and on the `tests.fake_ollama` logger, as Ollama logs it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import re
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from tests.support.fake_model import Behaviour, answer

DEFAULT_MODELS = ("gemma4:e4b", "embeddinggemma:latest")
DEFAULT_NUM_CTX = 4096
CHARS_PER_TOKEN = 4
_WORD = re.compile(r"\w+", re.UNICODE)
log = logging.getLogger("tests.fake_ollama")


@dataclass
class Reply:
    """One scripted chat reply. Content is streamed in `chunks` pieces; `tool_calls` are (name, args)."""

    content: str = ""
    thinking: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    chunks: int = 3
    delay_s: float = 0.0
    status: int = 200
    error: str | None = None
    error_after_chunks: int | None = None
    malformed_after_chunks: int | None = None  # then a line that is not JSON, and the stream stops


Responder = Callable[[dict[str, Any]], Reply]


def hash_embedding(text: str, dim: int, synonyms: dict[str, str], space: str = "") -> list[float]:
    """Bag-of-words hashing; `space` (the model name) salts the hash, so two models' vectors live in
    different spaces, exactly the situation where mixing them would give nonsense rankings."""
    vector = np.zeros(dim, dtype=np.float64)
    for raw in _WORD.findall(text.lower()):
        token = synonyms.get(raw, raw)
        token = synonyms.get(token.rstrip("s"), token.rstrip("s")) if len(token) > 3 else token
        digest = hashlib.blake2b(f"{space}|{token}".encode(), digest_size=8).digest()
        index = int.from_bytes(digest[:4], "little") % dim
        vector[index] += 1.0 if digest[4] & 1 else -1.0
    norm = np.linalg.norm(vector)
    if norm == 0:
        vector[0], norm = 1.0, 1.0
    return (vector / norm).tolist()


class FakeOllama:
    def __init__(self, models: tuple[str, ...] = DEFAULT_MODELS, embed_dim: int = 64) -> None:
        self.embed_dim = embed_dim
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._connections: set[socket.socket] = set()
        self._port = 0  # kept across stop()/start() so the app under test finds us again
        self.default_models = models
        self.embed_gate = threading.Event()  # cleared: embed requests wait (see hold_embeddings)
        self.unstick = threading.Event()  # set: stalled replies give up (at reset, so no thread lingers)
        self.reset()

    # -- scripting ------------------------------------------------------------------------------
    def reset(self) -> None:
        with self._lock:
            self.models: list[str] = list(self.default_models)
            self.queue: list[Reply] = []
            self.responder: Responder | None = None
            self.chat_requests: list[dict[str, Any]] = []
            self.embed_requests: list[dict[str, Any]] = []
            self.synonyms: dict[str, str] = {}
            self.embed_delay_s = 0.0
            # Ollama's models do not all answer unit vectors: anything but 1 scales each one (Quire normalises).
            self.embed_scale = 1.0
            self.tags_delay_s = 0.0  # a busy model server is slow to list its models too
            self.embed_gate.set()  # releases any request still held by the previous test
            for gate in getattr(self, "model_gates", {}).values():
                gate.set()
            self.model_gates: dict[str, threading.Event] = {}  # cleared: that model's embed requests wait
            # Each embedding model's vectors have a size of their own (the default `embed_dim` otherwise), so a
            # vector of one model can never pass for another's.
            self.embed_dims: dict[str, int] = {}
            self.embed_failures = 0
            self.embed_error_status = 500
            self.seconds_in_fake = 0.0
            # The default chat model (gemma4:e4b) can use tools, think and see; scripted replies answer.
            self.behaviours: dict[str, Behaviour] = {m: Behaviour(simulate=False, vision=True)
                                                     for m in self.default_models}
            self.truncations: list[dict[str, Any]] = []
            self.unstick.set()
            self.unstick = threading.Event()

    def add_model(self, name: str, behaviour: Behaviour) -> None:
        """A chat model that behaves as `behaviour` says (until the next reset)."""
        with self._lock:
            self.behaviours[name] = behaviour
            if name not in self.models:
                self.models.append(name)

    def behaviour(self, model: str) -> Behaviour:
        with self._lock:
            return self.behaviours.get(model) or self.behaviours.get(f"{model}:latest") or Behaviour(simulate=False)

    def hold_embeddings(self) -> None:
        """Embed requests wait (unanswered) until `release_embeddings()`."""
        self.embed_gate.clear()

    def release_embeddings(self) -> None:
        self.embed_gate.set()

    def hold_model(self, name: str) -> None:
        """Embed requests for model `name` (without its tag) wait until `release_model(name)`."""
        with self._lock:
            self.model_gates.setdefault(name, threading.Event()).clear()

    def release_model(self, name: str) -> None:
        with self._lock:
            gate = self.model_gates.get(name)
        if gate is not None:
            gate.set()

    def add_embedding_model(self, name: str, dim: int) -> None:
        """An embedding model (`name` with its tag) whose vectors have `dim` dimensions (until the next reset)."""
        with self._lock:
            self.embed_dims[name.split(":", maxsplit=1)[0]] = dim
            if name not in self.models:
                self.models.append(name)

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self.queue.extend(replies)

    def respond_with(self, responder: Responder | None) -> None:
        with self._lock:
            self.responder = responder

    def next_reply(self, request: dict[str, Any], seen: list[dict[str, Any]], behaviour: Behaviour) -> Reply:
        """The reply to `request`, whose model sees only `seen` (its messages after any truncation)."""
        with self._lock:
            self.chat_requests.append(request)
            if self.queue:
                return self.queue.pop(0)
            responder = self.responder
        if responder is not None:
            return responder(request)
        if behaviour.simulate:
            said = answer(request, seen, behaviour)
            return Reply(content=said.content, thinking=said.thinking, tool_calls=said.tool_calls or [])
        return Reply(content="This is the fake model's default answer.")

    def truncate(self, model: str, request: dict[str, Any], context_length: int) -> list[dict[str, Any]]:
        """The messages the model gets to see within the request's `num_ctx`, as Ollama cuts them."""
        messages = [dict(m) for m in request.get("messages") or []]
        asked = (request.get("options") or {}).get("num_ctx") or DEFAULT_NUM_CTX
        num_ctx = min(int(asked), context_length)
        fixed = len(json.dumps(request.get("tools") or [])) // CHARS_PER_TOKEN

        def tokens(items: list[dict[str, Any]]) -> int:
            return fixed + sum(len(m.get("content") or "") + len(json.dumps(m.get("tool_calls") or []))
                               for m in items) // CHARS_PER_TOKEN

        before, dropped = tokens(messages), 0
        while tokens(messages) > num_ctx and (i := _oldest_droppable(messages)) is not None:
            messages.pop(i)
            dropped += 1
        cut = 0
        if tokens(messages) > num_ctx and messages:
            keep = max(0, len(messages[-1].get("content") or "") - (tokens(messages) - num_ctx) * CHARS_PER_TOKEN)
            cut = len(messages[-1]["content"]) - keep
            messages[-1]["content"] = messages[-1]["content"][-keep:] if keep else ""
        if dropped or cut:
            record = {"model": model, "num_ctx": num_ctx, "prompt_tokens": before, "messages_dropped": dropped,
                      "chars_cut": cut}
            log.warning("truncating input prompt: %s", record)
            with self._lock:
                self.truncations.append(record)
        return messages

    # -- lifecycle ------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._port, "start() the fake first"
        return f"http://127.0.0.1:{self._port}"

    @property
    def running(self) -> bool:
        return self._server is not None

    def start(self, port: int = 0) -> FakeOllama:
        handler = type("Handler", (_Handler,), {"fake": self})
        self._server = ThreadingHTTPServer(("127.0.0.1", port or self._port), handler)
        self._port = self._server.server_address[1]
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="fake-ollama")
        self._thread.start()
        return self

    def stop(self) -> None:
        """Shut down: clients then get 'connection refused', exactly like a stopped Ollama.

        Kept-alive connections are closed too, or a client that just talked to us would still be served.
        """
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        with self._lock:
            connections, self._connections = self._connections, set()
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def restart(self) -> None:
        self.stop()
        self.start()


class _Handler(BaseHTTPRequestHandler):
    fake: FakeOllama
    protocol_version = "HTTP/1.1"
    lines_sent = 0
    stall_after: int | None = None

    def log_message(self, format: str, *args: Any) -> None:
        return

    def setup(self) -> None:
        super().setup()
        # Streamed lines must leave at once, as from Ollama; Nagle would hold them for ~40 ms.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with self.fake._lock:
            self.fake._connections.add(self.connection)

    def finish(self) -> None:
        with self.fake._lock:
            self.fake._connections.discard(self.connection)
        with contextlib.suppress(OSError):
            super().finish()

    # -- plumbing -------------------------------------------------------------------------------
    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("content-length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def _line(self, payload: dict[str, Any]) -> None:
        self._raw_line(json.dumps(payload).encode())

    def _raw_line(self, line: bytes) -> None:
        data = line + b"\n"
        self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def _end_stream(self) -> None:
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()

    # -- routes ---------------------------------------------------------------------------------
    def do_GET(self) -> None:
        if self.path == "/api/tags":
            if self.fake.tags_delay_s:
                time.sleep(self.fake.tags_delay_s)
            models = [{"name": m, "model": m, "modified_at": "2026-11-01T00:00:00Z", "size": 1000,
                       "digest": hashlib.sha256(m.encode()).hexdigest(), "details": {"format": "gguf"}}
                      for m in self.fake.models]
            self._json(200, {"models": models})
        elif self.path == "/api/version":
            self._json(200, {"version": "0.12.0-fake"})
        else:
            self._json(404, {"error": "not found"})

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        started = time.perf_counter()
        try:
            body = self._body()
            if self.path == "/api/chat":
                self._chat(body)
            elif self.path == "/api/embed":
                self._embed(body)
            elif self.path == "/api/show":
                self._show(body)
            else:
                self._json(404, {"error": f"unknown endpoint {self.path}"})
        except ConnectionError:  # the client left (or a stalled reply was abandoned): drop the connection
            self.close_connection = True
        finally:
            with self.fake._lock:
                self.fake.seconds_in_fake += time.perf_counter() - started

    def _model_missing(self, name: str) -> bool:
        wanted = name if ":" in name else f"{name}:latest"
        if name in self.fake.models or wanted in self.fake.models:
            return False
        self._json(404, {"error": f"model '{name}' not found"})
        return True

    def _embed(self, body: dict[str, Any]) -> None:
        fake = self.fake
        with fake._lock:
            fake.embed_requests.append(body)
            failing = fake.embed_failures > 0
            if failing:
                fake.embed_failures -= 1
        if self._model_missing(body.get("model", "")):
            return
        fake.embed_gate.wait(timeout=600)
        base = body.get("model", "").split(":", maxsplit=1)[0]
        with fake._lock:
            model_gate = fake.model_gates.get(base)
            dim = fake.embed_dims.get(base, fake.embed_dim)
        if model_gate is not None:
            model_gate.wait(timeout=600)
        if fake.embed_delay_s:
            time.sleep(fake.embed_delay_s)
        if failing:
            self._json(fake.embed_error_status, {"error": "fake embed failure"})
            return
        texts = body.get("input") or []
        texts = [texts] if isinstance(texts, str) else texts
        space = "" if base == "embeddinggemma" else body.get("model", "")
        vectors = [[x * fake.embed_scale for x in hash_embedding(t, dim, fake.synonyms, space)]
                   for t in texts]
        self._json(200, {"model": body.get("model"), "embeddings": vectors, "total_duration": 1})

    def _show(self, body: dict[str, Any]) -> None:
        model = body.get("model") or body.get("name") or ""
        if self._model_missing(model):
            return
        behaviour = self.fake.behaviour(model)
        self._json(200, {
            "modelfile": f"FROM {model}", "parameters": "temperature 0.7", "template": "{{ .Prompt }}",
            "details": {"format": "gguf", "family": "fake", "parameter_size": "0.5B", "quantization_level": "Q4_K_M"},
            "model_info": {"general.architecture": "fake", "fake.context_length": behaviour.context_length},
            "modified_at": "2026-11-01T00:00:00Z",
            # An embedding model (its name says so, as Ollama's do) lists only that it embeds.
            **({"capabilities": ["embedding"] if "embed" in model else behaviour.capabilities()}
               if behaviour.lists_capabilities else {}),
        })

    def _chat(self, body: dict[str, Any]) -> None:
        model = body.get("model", "")
        if self._model_missing(model):
            return
        behaviour = self.fake.behaviour(model)
        for wanted, has, what in ((body.get("think"), behaviour.thinking, "thinking"),
                                  (body.get("tools"), behaviour.tools, "tools")):
            if wanted and not has:  # Ollama's words for it
                self._json(400, {"error": f'"registry.ollama.ai/library/{model}" does not support {what}'})
                return
        seen = self.fake.truncate(model, body, behaviour.context_length)
        reply = self.fake.next_reply(body, seen, behaviour)
        if behaviour.first_line_s:  # Ollama sends nothing, not even headers, until the first token
            time.sleep(behaviour.first_line_s)
        if reply.status != 200:
            self._json(reply.status, {"error": reply.error or "fake chat failure"})
            return
        if body.get("stream", True):
            self._stream_reply(model, reply, bool(body.get("think")), behaviour.stall_after_lines)
        else:
            time.sleep(reply.delay_s)
            self._json(200, _final(model, _message(reply, reply.content, reply.thinking, True)))

    def _stream_reply(self, model: str, reply: Reply, think: bool, stall_after: int | None = None) -> None:
        self._start_stream()
        self.lines_sent, self.stall_after = 0, stall_after
        pieces = 0
        for text in _split(reply.thinking if think else "", reply.chunks):
            self._emit(model, {"role": "assistant", "content": "", "thinking": text}, reply)
            pieces += 1
            if reply.malformed_after_chunks is not None and pieces >= reply.malformed_after_chunks:
                self._raw_line(b"{not json")
                self._end_stream()
                return
        for text in _split(reply.content, reply.chunks):
            if reply.error_after_chunks is not None and pieces >= reply.error_after_chunks:
                break
            self._emit(model, {"role": "assistant", "content": text}, reply)
            pieces += 1
        if reply.error_after_chunks is not None:
            self._line({"error": reply.error or "fake failure mid-stream"})
        else:
            if reply.tool_calls:
                self._emit(model, _message(reply, "", "", True), reply)
            self._line(_final(model, {"role": "assistant", "content": ""}))
        self._end_stream()

    def _emit(self, model: str, message: dict[str, Any], reply: Reply) -> None:
        if reply.delay_s:
            time.sleep(reply.delay_s)
        if self.stall_after is not None and self.lines_sent >= self.stall_after:
            self.fake.unstick.wait(timeout=600)  # stuck: silent until the test ends (or the client leaves)
            raise ConnectionAbortedError("stalled reply abandoned")
        self._line({"model": model, "created_at": _now(), "message": message, "done": False})
        self.lines_sent += 1


def _oldest_droppable(messages: list[dict[str, Any]]) -> int | None:
    """The oldest message Ollama drops to fit: never a system message, never the last one."""
    return next((i for i, m in enumerate(messages[:-1]) if m.get("role") != "system"), None)


def _message(reply: Reply, content: str, thinking: str, with_tools: bool) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if thinking:
        message["thinking"] = thinking
    if with_tools and reply.tool_calls:
        message["tool_calls"] = [{"function": {"name": n, "arguments": a}} for n, a in reply.tool_calls]
    return message


def _final(model: str, message: dict[str, Any]) -> dict[str, Any]:
    return {"model": model, "created_at": _now(), "message": message, "done": True, "done_reason": "stop",
            "total_duration": 1000, "load_duration": 10, "prompt_eval_count": 10, "eval_count": 10}


def _split(text: str, pieces: int) -> list[str]:
    if not text:
        return []
    size = max(1, -(-len(text) // max(1, pieces)))
    return [text[i : i + size] for i in range(0, len(text), size)]


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())
