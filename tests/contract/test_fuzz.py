"""Schema fuzzing: Schemathesis generates requests for every operation of the running server's OpenAPI
schema — valid ones and deliberately invalid ones (wrong types, out-of-range numbers, odd strings,
missing fields) — and every answer must be a non-5xx, with every error in the one error shape, and
conform to the schema: a documented status code, its content type and its body's schema.

It runs against a real server process with its own database, with a fixed seed (`derandomize`) and a
fixed number of examples per operation and mode, so a run is repeatable and bounded (about two
minutes here, server start included).
Excluded, and why:
- `POST /api/documents/url` fetches whatever URL it is given: fuzzing it would send requests to
  generated host names (Quire's only outbound request is an explicit import). Its input validation is
  covered by tests/ingest/test_url_import.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from tests.support.fake_ollama import FakeOllama
from tests.support.postgres import ThrowawayPostgres
from tests.support.server import QuireServer

if TYPE_CHECKING:
    import requests
    import schemathesis

pytestmark = pytest.mark.slow

EXAMPLES_PER_OPERATION = 25
EXCLUDED = {("POST", "/api/documents/url")}


@pytest.fixture(scope="module")
def fuzzed_server(postgres: ThrowawayPostgres, fake_ollama_server: FakeOllama,
                  tmp_path_factory: pytest.TempPathFactory) -> Iterator[QuireServer]:
    server = QuireServer(postgres.fresh_database(), tmp_path_factory.mktemp("quire-fuzz"), fake_ollama_server.url,
                         QUIRE_MAX_UPLOAD_MB="1").start()
    yield server
    server.stop()


def _fuzz(operation: Any, mode: schemathesis.GenerationMode, base_url: str, session: requests.Session) -> str | None:
    """Run the examples of one operation in one mode; the first failure's description, or None."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis import checks

    conformance = [checks.status_code_conformance, checks.content_type_conformance,
                   checks.response_schema_conformance]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, deadline=None, database=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    def run(case: Any) -> None:
        response = case.call(base_url=base_url, session=session, timeout=30)
        where = f"{case.method} {case.formatted_path} query={case.query} -> {response.status_code}"
        assert response.status_code < 500, f"{where}: {response.text[:300]}"
        if response.status_code >= 400:
            _assert_error_shape(response, where)
        # And the answer is the one the OpenAPI document promises: a documented status, that response's
        # content type and body schema (generated API clients, the web app's types, rely on it).
        case.validate_response(response, checks=conformance)

    try:
        run()
    except Unsatisfiable:  # no invalid request exists (an operation without parameters): nothing to send
        return None
    except Exception as exc:  # noqa: BLE001 - every failure is collected, so one run reports them all
        return f"{operation.label} ({mode.value}): {exc}"
    return None


def _assert_error_shape(response: Any, where: str) -> None:
    try:
        body = response.json()
    except ValueError:
        pytest.fail(f"{where}: {response.status_code} is not JSON: {response.text[:200]!r}")
    assert isinstance(body, dict), where
    assert set(body) == {"error"}, (where, body)
    error = body["error"]
    assert isinstance(error.get("code"), str), (where, body)
    assert error["code"], (where, body)
    assert isinstance(error.get("message"), str), (where, body)
    assert error["message"], (where, body)
    assert set(error) <= {"code", "message", "details"}, (where, body)
    assert "Traceback" not in response.text, where


def test_no_server_errors_and_every_error_in_the_one_shape(fuzzed_server: QuireServer) -> None:
    # Imported here: both are large, and collecting the suite (the fast tier's too) would import them.
    import requests
    import schemathesis

    schema = schemathesis.openapi.from_url(f"{fuzzed_server.url}/api/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    fuzzed = [op for op in operations if (op.method.upper(), op.path) not in EXCLUDED]
    assert len(fuzzed) >= 40, [op.label for op in fuzzed]  # the whole API, not a schema that failed to load
    failures = []
    with requests.Session() as session:
        for operation in fuzzed:
            for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
                failure = _fuzz(operation, mode, fuzzed_server.url, session)
                if failure is not None:
                    failures.append(failure)
    assert not failures, "\n\n".join(failures)
