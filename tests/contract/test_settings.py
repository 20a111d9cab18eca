"""Settings: the variables earlier builds read and this one no longer does are ignored, never an error
(an operator's old .env must still start Quire), and what replaced them follows from the settings left."""

from __future__ import annotations

import pytest

from backend.config import Settings

# Variables of the build before the settings were cut to 25, with values someone may have set.
RETIRED = {
    "QUIRE_OLLAMA_TIMEOUT_S": "300", "QUIRE_EXTRACT_MEMORY_MB": "2048", "QUIRE_EXTRACT_CPU_S": "600",
    "QUIRE_EXTRACT_TIMEOUT_S": "900", "QUIRE_EXTRACT_MAX_CHARS": "1000000", "QUIRE_OCR_MAX_PAGE_MEGAPIXELS": "50",
    "QUIRE_VIEWER_WORKERS": "2", "QUIRE_VIEWER_MEMORY_MB": "1024", "QUIRE_VIEWER_CPU_S": "10",
    "QUIRE_VIEWER_TIMEOUT_S": "12", "QUIRE_HEARTBEAT_S": "2", "QUIRE_URL_IMPORT_MAX_MB": "20",
    "QUIRE_URL_IMPORT_TIMEOUT_S": "30", "QUIRE_CHAT_MEMORY_CHARS": "60000", "QUIRE_STUDY_IDLE_GAP_S": "600",
    "QUIRE_FRONTEND_DIST": "/srv/quire/dist", "QUIRE_VOICE_MAX_MB": "20",
}


def test_retired_variables_are_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in RETIRED.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("QUIRE_TAKEOVER_AFTER_S", "30")
    monkeypatch.setenv("QUIRE_ALLOWED_HOSTS", "Quire.lan, nas.local")  # comma-separated, as compose sets it
    monkeypatch.setenv("QUIRE_ENV_FILE", "/dev/null")
    settings = Settings.load()
    assert settings.takeover_after_s == 30
    assert settings.heartbeat_s == 2.5  # derived: twelve heartbeats in the takeover span
    assert settings.allowed_hosts == ["quire.lan", "nas.local"]


def test_derived_limits_follow_their_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("QUIRE_ENV_FILE", "/dev/null")
    monkeypatch.setenv("QUIRE_MAX_UPLOAD_MB", "7")
    monkeypatch.setenv("QUIRE_VOICE_MAX_SECONDS", "30")
    settings = Settings.load()
    assert settings.max_upload_request_bytes == 70 * 1024 * 1024
    assert settings.voice_max_mb == 3
    assert Settings.load().heartbeat_s == 5.0  # the default 60 s
