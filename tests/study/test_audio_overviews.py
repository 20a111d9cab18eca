"""The script's loose fields repaired the way small models fill them, and the sources' language choosing
the voices (the API tests in tests/api/test_study_overviews_api.py run the whole job)."""

from __future__ import annotations

from backend.study.audio_overviews import ScriptLine, language_of, repair_line
from backend.study.passages import Passage
from backend.study.repairs import Report


def _passage(text: str) -> Passage:
    return Passage(key="P1", block_id="b1", document_id="d1", filename="x.md", page=None, section="", text=text)


def test_loosely_named_hosts_and_citations_are_repaired() -> None:
    report = Report()
    line = ScriptLine.model_validate(repair_line({"speaker": "Host b", "text": "Why?", "citations": ["P2"]}, report))
    assert (line.speaker, line.source_block_ids) == ("B", ["P2"])
    assert report.repaired["speaker named loosely"] == 1
    assert repair_line({"speaker": "a", "text": "Hi."}, report)["speaker"] == "A"
    assert repair_line({"speaker": "speaker_a:", "text": "Hi."}, report)["speaker"] == "A"
    assert repair_line({"speaker": "Emma", "text": "Hi."}, report)["speaker"] == "Emma"  # a name: left to fail


def test_german_sources_pick_the_german_voices() -> None:
    german = _passage("Die Hochschulen dienen der Pflege und der Entwicklung der Wissenschaften und der Künste.")
    english = _passage("The universities serve the care and the development of the sciences and the arts.")
    assert language_of([german]) == "de"
    assert language_of([english]) == "en"
    assert language_of([]) == "en"
