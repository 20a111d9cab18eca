"""Settings: the one place that reads the environment.

Built once by the app factory (`Settings()`), then handed down; nothing else reads `os.environ`.
Every field is documented in README.md and `.env.example` (a test keeps the three in step).
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# DBOS recovers a crashed workflow only under the application version that started it, so the
# version is pinned here and bumped deliberately when workflow code changes incompatibly.
APPLICATION_VERSION = "quire-1"

REPO_ROOT = Path(__file__).resolve().parent.parent


def _env(name: str) -> AliasChoices:
    return AliasChoices(name)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", populate_by_name=True)

    database_url: str | None = Field(None, validation_alias=_env("DATABASE_URL"))
    ollama_host: str = Field("http://127.0.0.1:11434", validation_alias=_env("OLLAMA_HOST"))
    data_dir: Path = Field(Path("data"), validation_alias=_env("QUIRE_DATA_DIR"))
    host: str = Field("127.0.0.1", validation_alias=_env("QUIRE_HOST"))
    port: int = Field(8000, ge=1, le=65535, validation_alias=_env("QUIRE_PORT"))
    api_token: str | None = Field(None, validation_alias=_env("QUIRE_API_TOKEN"))
    allowed_hosts: list[str] = Field(default_factory=list, validation_alias=_env("QUIRE_ALLOWED_HOSTS"))
    chat_model: str = Field("gemma4:e4b", validation_alias=_env("QUIRE_CHAT_MODEL"))
    embed_model: str = Field("embeddinggemma", validation_alias=_env("QUIRE_EMBED_MODEL"))
    embedder: Literal["ollama", "local"] = Field("ollama", validation_alias=_env("QUIRE_EMBEDDER"))
    local_embed_model: Literal["all-mpnet-base-v2", "all-MiniLM-L6-v2"] = Field(
        "all-mpnet-base-v2", validation_alias=_env("QUIRE_LOCAL_EMBED_MODEL"))
    ollama_timeout_s: float = Field(120.0, gt=0, validation_alias=_env("QUIRE_OLLAMA_TIMEOUT_S"))
    max_upload_mb: int = Field(100, ge=1, validation_alias=_env("QUIRE_MAX_UPLOAD_MB"))
    # A whole upload request (all its files); unset = 10 × the per-file limit.
    max_upload_request_mb: int | None = Field(None, ge=1, validation_alias=_env("QUIRE_MAX_UPLOAD_REQUEST_MB"))
    max_chat_body_mb: int = Field(40, ge=1, le=1024, validation_alias=_env("QUIRE_MAX_CHAT_BODY_MB"))
    chunk_size: int = Field(1000, ge=200, le=8000, validation_alias=_env("QUIRE_CHUNK_SIZE"))
    chunk_overlap: int = Field(100, ge=0, le=1000, validation_alias=_env("QUIRE_CHUNK_OVERLAP"))
    embed_batch_size: int = Field(32, ge=1, le=512, validation_alias=_env("QUIRE_EMBED_BATCH_SIZE"))
    embed_retry_s: float = Field(5.0, gt=0, le=300, validation_alias=_env("QUIRE_EMBED_RETRY_S"))
    ocr_languages: str = Field("eng+deu", validation_alias=_env("QUIRE_OCR_LANGUAGES"))
    # Limits on reading one file (backend/ingest/sandbox.py); 0 workers = one per available core.
    extract_workers: int = Field(0, ge=0, le=64, validation_alias=_env("QUIRE_EXTRACT_WORKERS"))
    extract_memory_mb: int = Field(1024, ge=256, validation_alias=_env("QUIRE_EXTRACT_MEMORY_MB"))
    extract_cpu_s: int = Field(300, ge=5, validation_alias=_env("QUIRE_EXTRACT_CPU_S"))
    extract_max_chars: int = Field(20_000_000, ge=10_000, validation_alias=_env("QUIRE_EXTRACT_MAX_CHARS"))
    ocr_max_page_megapixels: int = Field(25, ge=1, le=1000, validation_alias=_env("QUIRE_OCR_MAX_PAGE_MEGAPIXELS"))
    # The viewer's own pool and limits for drawing PDF pages (backend/viewer/page_workers.py).
    viewer_workers: int = Field(1, ge=1, le=16, validation_alias=_env("QUIRE_VIEWER_WORKERS"))
    viewer_memory_mb: int = Field(1024, ge=256, validation_alias=_env("QUIRE_VIEWER_MEMORY_MB"))
    viewer_cpu_s: int = Field(5, ge=1, validation_alias=_env("QUIRE_VIEWER_CPU_S"))
    ingest_concurrency: int = Field(2, ge=1, le=16, validation_alias=_env("QUIRE_INGEST_CONCURRENCY"))
    # None: generated once and kept in the data folder (backend/cluster/identity.py).
    executor_id: str | None = Field(None, min_length=1, max_length=100, pattern=r"^[A-Za-z0-9_.:-]+$",
                                    validation_alias=_env("QUIRE_EXECUTOR_ID"))
    # Postgres sessions one process may hold (store/db.py splits them): max_connections >= processes x this + 3.
    db_connections: int = Field(9, ge=5, le=200, validation_alias=_env("QUIRE_DB_CONNECTIONS"))
    heartbeat_s: float = Field(5.0, gt=0, le=60, validation_alias=_env("QUIRE_HEARTBEAT_S"))
    takeover_after_s: float = Field(60.0, gt=0, validation_alias=_env("QUIRE_TAKEOVER_AFTER_S"))
    cache_sweep_s: float = Field(60.0, gt=0, validation_alias=_env("QUIRE_CACHE_SWEEP_S"))
    url_import_max_mb: int = Field(10, ge=1, validation_alias=_env("QUIRE_URL_IMPORT_MAX_MB"))
    url_import_timeout_s: float = Field(20.0, gt=0, validation_alias=_env("QUIRE_URL_IMPORT_TIMEOUT_S"))
    url_import_allow_private: bool = Field(False, validation_alias=_env("QUIRE_URL_IMPORT_ALLOW_PRIVATE"))
    index_poll_s: float = Field(1.0, gt=0, validation_alias=_env("QUIRE_INDEX_POLL_S"))
    # memory: each process holds a hybrid index (FAISS + BM25); postgres: search runs in the database.
    search_backend: Literal["memory", "postgres"] = Field("memory", validation_alias=_env("QUIRE_SEARCH_BACKEND"))
    # Postgres mode: keyword candidates one search scores at most (0: no limit, always exact BM25).
    search_keyword_candidates: int = Field(5_000, ge=0, validation_alias=_env("QUIRE_SEARCH_KEYWORD_CANDIDATES"))
    # Every process, either mode: how often the keyword change rows are folded into the impact lists' build.
    keyword_fold_s: float = Field(60.0, gt=0, validation_alias=_env("QUIRE_KEYWORD_FOLD_S"))
    chat_memory_chars: int = Field(48_000, ge=2_000, validation_alias=_env("QUIRE_CHAT_MEMORY_CHARS"))
    study_idle_gap_s: int = Field(900, ge=60, validation_alias=_env("QUIRE_STUDY_IDLE_GAP_S"))
    # IANA name (e.g. Europe/Berlin) for study days, streaks and time-of-day badges; unset = the server's zone.
    timezone: str | None = Field(None, validation_alias=_env("QUIRE_TIMEZONE"))
    prompts_dir: Path = Field(REPO_ROOT / "prompts", validation_alias=_env("QUIRE_PROMPTS_DIR"))
    frontend_dist: Path = Field(REPO_ROOT / "frontend" / "dist", validation_alias=_env("QUIRE_FRONTEND_DIST"))
    log_level: str = Field("INFO", validation_alias=_env("QUIRE_LOG_LEVEL"))
    # MCP clients may add documents and start quiz generation only when this is on (reads are always allowed).
    mcp_allow_writes: bool = Field(False, validation_alias=_env("QUIRE_MCP_ALLOW_WRITES"))
    # Voice questions (requirements-voice.txt): which local Whisper model, the recording limits, and the
    # languages spoken to Quire (the likeliest of them is transcribed when the request names none).
    voice_model: Literal["auto", "base", "tiny.en"] = Field("auto", validation_alias=_env("QUIRE_VOICE_MODEL"))
    voice_max_seconds: float = Field(120.0, gt=0, le=900, validation_alias=_env("QUIRE_VOICE_MAX_SECONDS"))
    voice_max_mb: int = Field(10, ge=1, le=50, validation_alias=_env("QUIRE_VOICE_MAX_MB"))
    voice_languages: list[str] = Field(default_factory=lambda: ["en", "de"],
                                       validation_alias=_env("QUIRE_VOICE_LANGUAGES"))

    @field_validator("voice_languages", mode="before")
    @classmethod
    def _split_languages(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip().lower() for part in value.split(",") if part.strip()] or ["en"]
        return value
    # Documents in the trash longer than this are deleted for good (checked on `trash_sweep_cron`).
    trash_retention_days: float = Field(30.0, ge=0, validation_alias=_env("QUIRE_TRASH_RETENTION_DAYS"))
    trash_sweep_cron: str = Field("0 0 * * * *", validation_alias=_env("QUIRE_TRASH_SWEEP_CRON"))

    @field_validator("allowed_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip().lower() for part in value.split(",") if part.strip()]
        return value

    @field_validator("database_url", "executor_id", mode="before")
    @classmethod
    def _unset_when_empty(cls, value: object) -> object:
        # `DATABASE_URL=` (as a compose file or .env may leave it) means: use the embedded Postgres;
        # an empty `QUIRE_EXECUTOR_ID=` means: generate one.
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("data_dir", "prompts_dir", "frontend_dist")
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

    @property
    def zone(self) -> ZoneInfo | None:
        """The study time zone; None means the server's local zone (what `datetime.astimezone()` uses)."""
        return ZoneInfo(self.timezone) if self.timezone else None

    @classmethod
    def load(cls) -> Settings:
        """Settings from the environment and the env file (`.env`, or QUIRE_ENV_FILE; tests use /dev/null)."""
        return cls(_env_file=os.environ.get("QUIRE_ENV_FILE", ".env"))  # type: ignore[call-arg]

    @property
    def docs_dir(self) -> Path:
        return self.data_dir / "docs"

    @property
    def postgres_dir(self) -> Path:
        return self.data_dir / "postgres"

    @property
    def max_upload_bytes(self) -> int:
        return self.max_upload_mb * 1024 * 1024

    @property
    def max_upload_request_bytes(self) -> int:
        return (self.max_upload_request_mb or 10 * self.max_upload_mb) * 1024 * 1024

    @property
    def binds_loopback_only(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False
