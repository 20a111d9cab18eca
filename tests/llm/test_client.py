"""The LLM client against the fake Ollama over real HTTP: streaming, tools, thinking, format, embeddings,
and failures translated into ModelUnavailable / ModelError."""

from __future__ import annotations

import asyncio
import base64

import numpy as np
import pytest

from backend.llm.capabilities import ModelFacts
from backend.llm.client import LLMClient
from backend.llm.embedders import OllamaEmbedder
from backend.llm.errors import CapabilityMissing, ModelError, ModelStalled, ModelUnavailable
from tests.support.fake_model import Behaviour
from tests.support.fake_ollama import FakeOllama, Reply


@pytest.fixture
def client(fake_ollama: FakeOllama) -> LLMClient:
    return LLMClient(fake_ollama.url, "gemma4:e4b", "embeddinggemma", timeout_s=10)


def test_streamed_chat_yields_thinking_then_content(client: LLMClient, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(thinking="Let me think.", content="The answer is 42.", chunks=4))
    deltas = list(client.chat_stream_sync([{"role": "user", "content": "q"}], think=True))
    thinking = "".join(d.thinking for d in deltas)
    content = "".join(d.content for d in deltas)
    assert thinking == "Let me think."
    assert content == "The answer is 42."
    assert deltas[-1].done
    assert fake_ollama.chat_requests[0]["think"] is True


def test_tool_calls_arrive_with_object_arguments(client: LLMClient, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(tool_calls=[("calculator", {"expression": "2+2"})]))
    tool = {"type": "function", "function": {"name": "calculator", "description": "math",
                                             "parameters": {"type": "object", "properties": {}}}}
    deltas = list(client.chat_stream_sync([{"role": "user", "content": "2+2?"}], tools=[tool]))
    calls = [call for d in deltas for call in d.tool_calls]
    assert [(c.name, c.arguments) for c in calls] == [("calculator", {"expression": "2+2"})]
    assert fake_ollama.chat_requests[0]["tools"][0]["function"]["name"] == "calculator"


def test_structured_output_sends_the_schema(client: LLMClient, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(content='{"items": []}'))
    schema = {"type": "object", "properties": {"items": {"type": "array"}}}
    reply = client.chat([{"role": "user", "content": "json please"}], format=schema, options={"temperature": 0.1})
    assert reply.content == '{"items": []}'
    assert fake_ollama.chat_requests[0]["format"] == schema
    assert fake_ollama.chat_requests[0]["options"]["temperature"] == 0.1


def test_async_stream(client: LLMClient, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(content="abc def", chunks=2))

    async def collect() -> str:
        text = "".join([d.content async for d in client.achat_stream([{"role": "user", "content": "x"}])])
        await client.aclose()
        return text

    assert asyncio.run(collect()) == "abc def"


def test_async_and_sync_calls_send_the_same_bodies(client: LLMClient, fake_ollama: FakeOllama) -> None:
    # Both paths go through the official client's public chat(); what reaches Ollama must not depend on
    # which one a caller uses: tools, thinking, options, format, images (bytes become base64), tool turns.
    from backend.agent.tools import chat_tools

    messages = [
        {"role": "system", "content": "You are Quire."},
        {"role": "user", "content": "What is on this slide?", "images": [b"\x89PNG fake bytes", "aGVsbG8="]},
        {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "search_knowledge_base", "arguments": {"query": "slide, ü \u2028 \"q\""}}}]},
        {"role": "tool", "content": "Search results: [1] … line\nbreak", "tool_name": "search_knowledge_base"},
        {"role": "assistant", "content": "It shows the Calvin cycle [1]."},
        {"role": "user", "content": "And then? 😀"},
    ]
    calls = [({"tools": chat_tools().schemas(), "think": False}, True),
             ({"think": True, "options": {"num_predict": 512}}, True),
             ({"format": {"type": "object", "properties": {"q": {"type": "string"}}},
               "options": {"temperature": 0.2}}, False)]

    async def send_all() -> None:
        for kwargs, stream in calls:
            if stream:
                [_ async for _ in client.achat_stream(messages, **kwargs)]
            else:
                await client.achat(messages, **kwargs)
        await client.aclose()

    asyncio.run(send_all())
    sent_async = list(fake_ollama.chat_requests)
    for kwargs, stream in calls:
        if stream:
            list(client.chat_stream_sync(messages, **kwargs))
        else:
            client.chat(messages, **kwargs)
    sent_sync = fake_ollama.chat_requests[len(sent_async):]
    assert len(sent_async) == len(calls)
    assert sent_async == sent_sync
    assert sent_async[0]["messages"][1]["images"] == [base64.b64encode(b"\x89PNG fake bytes").decode(), "aGVsbG8="]
    assert sent_async[0]["tools"][0]["function"]["name"] == "search_knowledge_base"
    assert sent_async[1]["think"] is True
    assert sent_async[1]["options"] == {"num_predict": 512}
    assert sent_async[2]["format"]["properties"]["q"] == {"type": "string"}
    assert sent_async[2]["stream"] is True  # every call streams, so a stuck server is noticed (patience.py)


def test_embeddings_are_normalised_and_deterministic(client: LLMClient, fake_ollama: FakeOllama) -> None:
    embedder = OllamaEmbedder(client, "embeddinggemma")
    unit = embedder.embed(["photosynthesis in plants", "tax law"])
    fake_ollama.embed_scale = 7.5  # a model whose vectors are not of unit length
    first = embedder.embed(["photosynthesis in plants", "tax law"])
    again = embedder.embed(["photosynthesis in plants"])
    assert first.shape == (2, 64)
    assert np.allclose(np.linalg.norm(first, axis=1), 1.0, atol=1e-5)
    assert np.allclose(first, unit, atol=1e-6)  # the same direction, unit length
    assert np.allclose(first[0], again[0])
    assert embedder.model == "ollama:embeddinggemma"


def test_async_embeddings_match_the_sync_ones(client: LLMClient, fake_ollama: FakeOllama) -> None:
    # The async path sends its own body (see LLMClient.aembed); Ollama must read it as the same request.
    texts = ["photosynthesis in plants", "Übung: tax law"]

    async def both() -> tuple[np.ndarray, str]:
        vectors = await client.aembed(texts)
        fake_ollama.models = ["gemma4:e4b"]
        try:
            await client.aembed(texts)
        except ModelUnavailable as exc:
            return vectors, exc.hint
        finally:
            await client.aclose()
        return vectors, ""

    vectors, hint = asyncio.run(both())
    fake_ollama.models = ["gemma4:e4b", "embeddinggemma:latest"]
    assert np.array_equal(vectors, client.embed(texts))
    assert "ollama pull embeddinggemma" in hint


def test_missing_model_is_model_unavailable_with_pull_hint(client: LLMClient, fake_ollama: FakeOllama) -> None:
    fake_ollama.models = ["embeddinggemma:latest"]
    with pytest.raises(ModelUnavailable) as info:
        client.chat([{"role": "user", "content": "hi"}])
    assert "ollama pull gemma4:e4b" in info.value.hint
    assert not client.status().has("gemma4:e4b")


def test_server_down_is_model_unavailable(fake_ollama: FakeOllama) -> None:
    client = LLMClient(fake_ollama.url, "gemma4:e4b", "embeddinggemma", timeout_s=5)
    fake_ollama.stop()
    with pytest.raises(ModelUnavailable) as info:
        client.embed(["x"])
    assert "ollama serve" in info.value.hint
    assert client.status().reachable is False


def test_server_down_is_model_unavailable_for_streamed_async_calls(fake_ollama: FakeOllama) -> None:
    # The async client's transport (aiohttp) must report a refused connection as unreachable, not as slow.
    client = LLMClient(fake_ollama.url, "gemma4:e4b", "embeddinggemma", timeout_s=5)
    fake_ollama.stop()

    async def ask() -> None:
        try:
            async for _delta in client.achat_stream([{"role": "user", "content": "x"}]):
                pass
        finally:
            await client.aclose()

    with pytest.raises(ModelUnavailable) as info:
        asyncio.run(ask())
    assert "ollama serve" in info.value.hint


def test_error_line_mid_stream_is_model_error(client: LLMClient, fake_ollama: FakeOllama) -> None:
    fake_ollama.script(Reply(content="partial answer here", chunks=3, error="GPU fell over", error_after_chunks=1))
    received: list[str] = []

    def consume() -> None:
        for delta in client.chat_stream_sync([{"role": "user", "content": "q"}]):
            received.append(delta.content)

    with pytest.raises(ModelError):
        consume()
    assert received  # the part before the failure did arrive


def test_http_500_on_embed_is_model_error(client: LLMClient, fake_ollama: FakeOllama) -> None:
    fake_ollama.embed_failures = 1
    with pytest.raises(ModelError):
        client.embed(["x"])
    assert client.embed(["x"]).shape == (1, 64)


def test_model_facts_come_from_api_show_once(client: LLMClient, fake_ollama: FakeOllama) -> None:
    fake_ollama.add_model("tiny:0.5b", Behaviour(tools=False, thinking=False, context_length=2048))
    facts = client.facts("tiny:0.5b")
    assert facts == ModelFacts("tiny:0.5b", 2048, tools=False, thinking=False, vision=False)
    fake_ollama.add_model("tiny:0.5b", Behaviour(tools=True, thinking=True))
    assert client.facts("tiny:0.5b") == facts  # read once per model
    assert client.facts() == ModelFacts("gemma4:e4b", 32_768, tools=True, thinking=True, vision=True)
    fake_ollama.models.remove("embeddinggemma:latest")
    with pytest.raises(ModelUnavailable):
        client.facts("embeddinggemma")


def test_a_refused_capability_is_remembered(client: LLMClient, fake_ollama: FakeOllama) -> None:
    # An Ollama that lists no capabilities leaves them assumed; its 400 for `think` corrects them.
    fake_ollama.add_model("old:1b", Behaviour(thinking=False, simulate=False, lists_capabilities=False))
    assert client.facts("old:1b") == ModelFacts("old:1b", 32_768, tools=True, thinking=True, vision=False,
                                                assumed=True)
    with pytest.raises(CapabilityMissing) as info:
        client.chat([{"role": "user", "content": "q"}], model="old:1b", think=True)
    assert info.value.capability == "thinking"
    assert "does not support thinking" in info.value.message
    assert client.facts("old:1b").thinking is False


def test_a_slow_first_line_is_waited_for(fake_ollama: FakeOllama) -> None:
    # One second of silence is the limit once the model writes; reading a prompt gets more, by its size.
    fake_ollama.add_model("slow:1b", Behaviour(first_line_s=2.5, simulate=False))
    fake_ollama.script(Reply(content="Worth the wait.", chunks=3))
    client = LLMClient(fake_ollama.url, "slow:1b", "embeddinggemma", timeout_s=1)
    reply = client.chat([{"role": "user", "content": "a question of a few words " * 4}])
    assert reply.content == "Worth the wait."


def test_a_silent_server_is_noticed_and_ticks_tell_the_wait(fake_ollama: FakeOllama) -> None:
    fake_ollama.add_model("stuck:1b", Behaviour(stall_after_lines=2, simulate=False))
    fake_ollama.script(Reply(content="one two three four", chunks=4))
    client = LLMClient(fake_ollama.url, "stuck:1b", "embeddinggemma", timeout_s=1)
    received: list[str] = []
    ticks: list[float] = []

    async def consume() -> None:
        try:
            async for delta in client.achat_stream([{"role": "user", "content": "q"}], tick_s=0.3):
                received.append(delta.content)
                if delta.waiting_s is not None:
                    ticks.append(delta.waiting_s)
        finally:
            await client.aclose()

    with pytest.raises(ModelStalled) as info:
        asyncio.run(consume())
    assert "".join(received) == "one two th"  # two of four lines
    assert info.value.reading is False
    assert ticks
    assert max(ticks) < 1.0
