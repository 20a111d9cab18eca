"""Settings: the one place that reads the environment.

Built once by the process's entry point (`Settings.load()`), then handed down; nothing else reads
`os.environ`. `Settings` holds what a user may choose, in groups; each field's description is its
documentation: scripts/settings_table.py writes docs/configuration.md's tables and `.env.example` from
it, and tests/contract/test_docs.py checks they agree. `Tuning` holds the few internal knobs that tests and
benchmarks turn (to make a minute-long interval observable in a second, say); they are listed in
docs/development.md, not offered to users. Everything else that was once a setting is a constant next
to the code that uses it, or derived from a setting here. A variable this build no longer reads is
ignored, never an error.
"""

from __future__ import annotations

import ipaddress
import math
import os
from pathlib import Path
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

# DBOS recovers a crashed workflow only under the application version that started it, so the
# version is pinned here and bumped deliberately when workflow code changes incompatibly.
APPLICATION_VERSION = "quire-1"

REPO_ROOT = Path(__file__).resolve().parent.parent
FRONTEND_DIST = REPO_ROOT / "frontend" / "dist"  # the built web app
ENV_FILE_VARIABLE = "QUIRE_ENV_FILE"  # the env file to read (default `.env`; the tests use /dev/null)

GROUPS = ("Where Quire listens", "Where data lives", "Models", "Documents", "Several processes",
          "Study, voice and agents")


def _setting(default: Any, env: str, group: str, doc: str, *, shown: str | None = None, **rules: Any) -> Any:
    """A field read from `env`, documented by `doc` in `group` (`shown`: its default in words)."""
    assert group in GROUPS or group == "internal", group
    return Field(default, validation_alias=AliasChoices(env), description=doc,
                 json_schema_extra={"env": env, "group": group, "shown": shown}, **rules)


# A comma-separated list in the environment (`a,b`), split by the validators below, not read as JSON.
Names = Annotated[list[str], NoDecode]


def _split(value: object) -> object:
    if isinstance(value, str):
        return [part.strip().lower() for part in value.split(",") if part.strip()]
    return value


class Tuning(BaseSettings):
    """Internal knobs, not user settings: their defaults are what Quire is built and measured with."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    chunk_size: int = _setting(1000, "QUIRE_CHUNK_SIZE", "internal", "Target characters per block",
                               ge=200, le=8000)
    chunk_overlap: int = _setting(100, "QUIRE_CHUNK_OVERLAP", "internal", "Characters carried over between blocks",
                                  ge=0, le=1000)
    embed_batch_size: int = _setting(32, "QUIRE_EMBED_BATCH_SIZE", "internal",
                                     "Blocks per embedding request (one DBOS step each)", ge=1, le=512)
    embed_retry_s: float = _setting(5.0, "QUIRE_EMBED_RETRY_S", "internal", "First wait before the embedding "
                                    "backfill asks an unreachable Ollama again (doubles up to 5 minutes)", gt=0, le=300)
    extract_workers: int = _setting(0, "QUIRE_EXTRACT_WORKERS", "internal",
                                    "Processes that read files and OCR pages; `0` = one per core", ge=0, le=64)
    cache_sweep_s: float = _setting(60.0, "QUIRE_CACHE_SWEEP_S", "internal",
                                    "How often each process drops cached originals another process deleted", gt=0)
    index_poll_s: float = _setting(1.0, "QUIRE_INDEX_POLL_S", "internal",
                                   "How often a process picks up index changes made by other processes", gt=0)
    search_keyword_candidates: int = _setting(
        5_000, "QUIRE_SEARCH_KEYWORD_CANDIDATES", "internal", "Postgres search mode: blocks a keyword search scores "
        "at most; beyond, the rarer words' blocks and each common word's best (`0`: always exact BM25)", ge=0)
    keyword_fold_s: float = _setting(60.0, "QUIRE_KEYWORD_FOLD_S", "internal", "How often the Postgres mode's keyword "
                                     "change rows are folded into the impact lists' counts (every process)", gt=0)
    max_upload_request_mb: int | None = _setting(
        None, "QUIRE_MAX_UPLOAD_REQUEST_MB", "internal", "Largest upload request, all its files together",
        shown="10 × `QUIRE_MAX_UPLOAD_MB`", ge=1)
    max_chat_body_mb: int = _setting(40, "QUIRE_MAX_CHAT_BODY_MB", "internal",
                                     "Largest chat request, attachments (base64) included", ge=1, le=1024)
    voice_max_seconds: float = _setting(120.0, "QUIRE_VOICE_MAX_SECONDS", "internal",
                                        "Longest recording `/api/transcribe` accepts (its size limit follows: "
                                        "1 MB per 12 seconds)", gt=0, le=900)
    model_silence_s: float = _setting(120.0, "QUIRE_MODEL_SILENCE_S", "internal", "Silence after which the model "
                                      "server counts as stuck (reading a prompt is allowed 1 s more per 2 tokens; "
                                      "docs/models.md)", gt=0)
    db_connections: int = _setting(9, "QUIRE_DB_CONNECTIONS", "internal", "Postgres sessions one process may hold "
                                   "(its pool, DBOS's pool, heartbeat, probe); the server needs `max_connections` ≥ "
                                   "processes × this + 3", ge=5, le=200)
    trash_sweep_cron: str = _setting("0 0 * * * *", "QUIRE_TRASH_SWEEP_CRON", "internal",
                                     "When the trash's age limit is checked (cron with seconds; hourly)")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    # -- where Quire listens
    host: str = _setting("127.0.0.1", "QUIRE_HOST", GROUPS[0], "Bind address; anything but loopback requires "
                         "`QUIRE_API_TOKEN`")
    port: int = _setting(8000, "QUIRE_PORT", GROUPS[0], "Port of the web app, the API and MCP (`/mcp`)", ge=1,
                         le=65535)
    api_token: str | None = _setting(None, "QUIRE_API_TOKEN", GROUPS[0], "Token every `/api/*` and `/mcp` request "
                                     "must bring (Bearer header or `quire_token` cookie)")
    allowed_hosts: Names = _setting([], "QUIRE_ALLOWED_HOSTS", GROUPS[0], "Extra host names the app may be "
                                        "reached by (comma-separated), e.g. a LAN name when bound elsewhere")
    log_level: str = _setting("INFO", "QUIRE_LOG_LEVEL", GROUPS[0], "Log level")
    # -- where data lives
    data_dir: Path = _setting(Path("data"), "QUIRE_DATA_DIR", GROUPS[1], "This process's cache of originals "
                              "(`docs/objects/`) and the embedded database (`postgres/`)")
    database_url: str | None = _setting(None, "DATABASE_URL", GROUPS[1], "Postgres with pgvector; unset = an "
                                        "embedded server under `$QUIRE_DATA_DIR/postgres`")
    prompts_dir: Path = _setting(REPO_ROOT / "prompts", "QUIRE_PROMPTS_DIR", GROUPS[1], "Prompt templates; "
                                 "overrides in its `custom/` folder apply on the next request", shown="`prompts`")
    # -- models
    ollama_host: str = _setting("http://127.0.0.1:11434", "OLLAMA_HOST", GROUPS[2], "Where Ollama listens")
    chat_model: str = _setting("gemma4:e4b", "QUIRE_CHAT_MODEL", GROUPS[2], "Ollama chat model")
    embed_model: str = _setting("embeddinggemma", "QUIRE_EMBED_MODEL", GROUPS[2], "Ollama embedding "
                                   "model a new vault starts with; the vault panel switches it (changed here later, "
                                   "the next start switches to it)")
    embedder: Literal["ollama", "local"] = _setting("ollama", "QUIRE_EMBEDDER", GROUPS[2], "`ollama`, or `local` "
                                                    "for an in-process embedder (requirements-local.txt)")
    local_embed_model: Literal["all-mpnet-base-v2", "all-MiniLM-L6-v2"] = _setting(
        "all-mpnet-base-v2", "QUIRE_LOCAL_EMBED_MODEL", GROUPS[2], "The in-process model of `QUIRE_EMBEDDER=local`: "
        "`all-mpnet-base-v2` (better search; exported once into the Python environment by "
        "`./scripts/setup.sh --local`, 174 MB) or "
        "`all-MiniLM-L6-v2` (about 6× faster)")
    # -- documents
    max_upload_mb: int = _setting(100, "QUIRE_MAX_UPLOAD_MB", GROUPS[3], "Largest accepted file (enforced while "
                                  "streaming); a whole upload request may carry 10 times as much", ge=1)
    ocr_languages: str = _setting("eng+deu", "QUIRE_OCR_LANGUAGES", GROUPS[3], "Tesseract languages for scanned pages")
    url_import_allow_private: bool = _setting(False, "QUIRE_URL_IMPORT_ALLOW_PRIVATE", GROUPS[3], "Allow importing "
                                              "from private/intranet addresses (SSRF risk: keep it off)")
    trash_retention_days: float = _setting(30.0, "QUIRE_TRASH_RETENTION_DAYS", GROUPS[3], "Documents in the trash "
                                           "longer than this are deleted for good, checked hourly (`0`: at the "
                                           "next check)", ge=0)
    # -- several processes
    ingest_concurrency: int = _setting(2, "QUIRE_INGEST_CONCURRENCY", GROUPS[4],
                                       "Ingestion workflows this process runs at once", ge=1, le=16)
    executor_id: str | None = _setting(
        None, "QUIRE_EXECUTOR_ID", GROUPS[4], "DBOS executor id of this process; unset = generated once and kept in "
        "`$QUIRE_DATA_DIR/executor-id` (a second live process with the same id refuses to start)", shown="generated",
        min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.:-]+$")
    takeover_after_s: float = _setting(60.0, "QUIRE_TAKEOVER_AFTER_S", GROUPS[4], "A process silent this long is "
                                       "dead: one live process resumes its pending workflows; one silent twice as "
                                       "long that still holds its database session is fenced (its sessions ended) "
                                       "and taken over (each process records that it is alive 12 times in this "
                                       "span)", gt=0)
    search_backend: Literal["memory", "postgres"] = _setting(
        "memory", "QUIRE_SEARCH_BACKEND", GROUPS[4], "`memory`: each process holds the search index in RAM; "
        "`postgres`: search runs in the database (pgvector HNSW + BM25 in SQL), nothing per process")
    # -- study, voice and agents
    timezone: str | None = _setting(None, "QUIRE_TIMEZONE", GROUPS[5], "IANA zone (e.g. `Europe/Berlin`) for study "
                                    "days, streaks and time-of-day badges", shown="server's zone")
    voice_model: Literal["auto", "base", "tiny.en"] = _setting(
        "auto", "QUIRE_VOICE_MODEL", GROUPS[5], "Speech-to-text model (requirements-voice.txt): `base` "
        "(multilingual), `tiny.en` (English, faster); `auto` = base if installed")
    voice_languages: Names = _setting(["en", "de"], "QUIRE_VOICE_LANGUAGES", GROUPS[5], "Languages people speak "
                                          "to Quire (comma-separated); the likeliest is transcribed")
    mcp_allow_writes: bool = _setting(False, "QUIRE_MCP_ALLOW_WRITES", GROUPS[5], "Let MCP clients add documents "
                                      "and start quiz generation (reads are always on)")

    tuning: Tuning = Field(default_factory=Tuning, exclude=True)

    @field_validator("voice_languages", mode="before")
    @classmethod
    def _split_languages(cls, value: object) -> object:
        return _split(value) or ["en"]

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        return _split(value)

    @field_validator("database_url", "executor_id", mode="before")
    @classmethod
    def _unset_when_empty(cls, value: object) -> object:
        # `DATABASE_URL=` (as a compose file or .env may leave it) means: use the embedded Postgres;
        # an empty `QUIRE_EXECUTOR_ID=` means: generate one.
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("data_dir", "prompts_dir")
    @classmethod
    def _absolute(cls, value: Path) -> Path:
        return value.expanduser().resolve()

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str | None) -> str | None:
        if not value:
            return None
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r} (use an IANA name like Europe/Berlin)") from exc
        return value

    @classmethod
    def load(cls) -> Settings:
        """Settings from the environment and the env file (`.env`, or QUIRE_ENV_FILE; tests use /dev/null)."""
        env_file = os.environ.get(ENV_FILE_VARIABLE, ".env")
        return cls(_env_file=env_file, tuning=Tuning(_env_file=env_file))  # type: ignore[call-arg]

    @property
    def zone(self) -> ZoneInfo | None:
        """The study time zone; None means the server's local zone (what `datetime.astimezone()` uses)."""
        return ZoneInfo(self.timezone) if self.timezone else None

    @property
    def docs_dir(self) -> Path:
        return self.data_dir / "docs"

    @property
    def overview_cache_dir(self) -> Path:
        """This process's copies of audio overviews (the audio itself is in Postgres)."""
        return self.data_dir / "overviews"

    @property
    def postgres_dir(self) -> Path:
        return self.data_dir / "postgres"

    @property
    def max_upload_bytes(self) -> int:
        return self.max_upload_mb * 1024 * 1024

    @property
    def max_upload_request_bytes(self) -> int:
        return (self.tuning.max_upload_request_mb or 10 * self.max_upload_mb) * 1024 * 1024

    @property
    def heartbeat_s(self) -> float:
        """How often each process records that it is alive: often enough that a dead one is noticed within
        `takeover_after_s` (5 s at the default 60 s)."""
        return self.takeover_after_s / 12

    @property
    def voice_max_mb(self) -> int:
        """The largest recording, in MB: a compressed recording of `voice_max_seconds` fits in it (10 MB for
        the default 2 minutes)."""
        return max(1, math.ceil(self.tuning.voice_max_seconds / 12))

    @property
    def binds_loopback_only(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False
