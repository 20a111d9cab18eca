"""Nothing the user read is lost: a server SIGKILLed mid-answer leaves the text it had streamed in the
session, marked incomplete (status partial), and the conversation goes on from it ("Continue" asks in the
same session, and the model sees the cut-off answer)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from tests.agent.chatting import chat
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import QuireServer

WORDS = [f"word{i}" for i in range(60)]


def test_a_killed_server_leaves_the_streamed_text_marked_incomplete(
    server_factory: Callable[..., QuireServer], fake_ollama: FakeOllama
) -> None:
    server = server_factory()
    # 60 pieces, 0.25 s apart: 15 s of answer; the server is killed after about 3 s of it.
    fake_ollama.script(Reply(thinking="Count."), Reply(content=" ".join(WORDS), chunks=60, delay_s=0.25))
    received: list[str] = []
    session_id = ""
    with server.client() as api, api.stream("POST", "/api/chat", json={"message": "Count to sixty slowly please"},
                                            timeout=60) as response:
        for line in response.iter_lines():
            event = json.loads(line)
            if event["type"] == "start":
                session_id = event["data"]["session_id"]
            if event["type"] == "text":
                received.append(event["data"])
                if len(received) == 12:
                    time.sleep(1.5)  # the autosave writes at most a second behind what was sent
                    server.kill()
                    break
    read = "".join(received)
    server.restart()
    with server.client() as api:
        session = api.get(f"/api/chat/sessions/{session_id}").json()
    answer = session["messages"][-1]
    assert answer["role"] == "assistant"
    assert answer["status"] == "partial"  # the UI shows it as an incomplete answer, with Continue / Ask again
    assert answer["content"].startswith(read)  # everything the user read, maybe a little more
    assert read.strip()

    # "Continue": a follow-up in the same session; the model sees the cut-off answer in the history.
    fake_ollama.script(Reply(thinking="Go on."), Reply(content=" ".join(WORDS[12:])))
    with server.client() as api:
        chat(api, "Continue your previous answer from where it stopped.", session_id=session_id)
    sent = fake_ollama.chat_requests[-1]["messages"]
    assert any(m["role"] == "assistant" and m["content"].startswith(read) for m in sent)
