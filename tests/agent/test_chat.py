"""A chat request end to end on a dedicated server: the conversation survives a restart (nothing lives
only in RAM), and a prompt override in prompts/custom/ takes effect on the next request."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from tests.agent.chatting import chat, user_messages
from tests.support.fake_ollama import FakeOllama, Reply
from tests.support.server import REPO_ROOT, QuireServer


def test_the_model_sees_the_history_after_a_restart(server_factory: Callable[..., QuireServer],
                                                    fake_ollama: FakeOllama) -> None:
    server = server_factory()
    fake_ollama.script(
        Reply(thinking="Multiply."),
        Reply(tool_calls=[("calculator", {"expression": "12 * 12"})]),
        Reply(content="12 × 12 = 144."),
    )
    with server.client() as api:
        first = chat(api, "What is 12 times 12?")
    server.restart()
    fake_ollama.script(Reply(thinking="Follow-up."), Reply(content="Half of it is 72."))
    with server.client() as api:
        second = chat(api, "And half of that?", session_id=first.session_id)
        session = api.get(f"/api/chat/sessions/{first.session_id}").json()
    assert second.session_id == first.session_id
    request = fake_ollama.chat_requests[-1]
    # Each turn: the question, Quire's search for it, the model's calculator call, the answer.
    assert [m["role"] for m in request["messages"]] == ["system", "user", "assistant", "tool", "assistant", "tool",
                                                        "assistant", "user", "assistant", "tool"]
    assert user_messages(request) == ["What is 12 times 12?", "And half of that?"]
    assert request["messages"][5]["content"] == "12 * 12 = 144"
    assert request["messages"][6]["content"] == "12 × 12 = 144."
    assert second.one("memory")["turns_kept"] == 1
    assert [m["content"] for m in session["messages"] if m["role"] == "assistant" and m["content"]] == [
        "12 × 12 = 144.", "Half of it is 72."]


def test_a_prompt_override_applies_without_restart(server_factory: Callable[..., QuireServer],
                                                   fake_ollama: FakeOllama, tmp_path: Path) -> None:
    prompts = tmp_path / "prompts"
    shutil.copytree(REPO_ROOT / "prompts", prompts, ignore=shutil.ignore_patterns("custom"))
    (prompts / "custom").mkdir()
    server = server_factory(QUIRE_PROMPTS_DIR=str(prompts))
    with server.client() as api:
        chat(api, "hello")
        assert fake_ollama.chat_requests[-1]["messages"][0]["content"].startswith("You are Quire, a study assistant.")

        (prompts / "custom" / "chat_system.md").write_text("You are Quire in exam mode. {{scope}} Date: {{date}}.")
        chat(api, "hello again")
        system = fake_ollama.chat_requests[-1]["messages"][0]["content"]
        assert system.startswith("You are Quire in exam mode. The whole vault")
        assert "Date: " in system

        (prompts / "custom" / "chat_system.md").write_text("You are Quire. {{no_such_value}}")
        broken = chat(api, "hello once more")
        assert broken.types[-2:] == ["error", "done"]
        assert "text" not in broken.types
        assert broken.one("error")["code"] == "prompt_error"
        assert "no_such_value" in broken.one("error")["message"]

        (prompts / "custom" / "chat_system.md").unlink()
        chat(api, "and back")
        assert fake_ollama.chat_requests[-1]["messages"][0]["content"].startswith("You are Quire, a study")
