"""The Dashboard in a real browser, on a server of its own (a fresh database, so every badge starts
unearned): study activity done in the app — answering quiz questions — earns badges, shows as today's
time, sessions and streak, lights today's heatmap cell (whose day detail lists the answers), and the
vault panel describes the documents, models and storage."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.support.fake_ollama import FakeOllama
from tests.support.server import QuireServer
from tests.support.study import generate, quiz_reply, study_vault


@pytest.fixture(scope="module")
def vault(e2e_server: QuireServer) -> Iterator[dict[str, Any]]:
    with e2e_server.client() as api:
        yield study_vault(api, topics=("cells", "plants"))


def test_a_new_vault_shows_unearned_badges_and_an_empty_heatmap_that_teach(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, vault: dict[str, Any]
) -> None:
    page.goto(e2e_server.url + "/dashboard")
    expect(page.get_by_test_id("badges-earned")).to_have_text("0 of 25 earned")
    expect(page.get_by_test_id("badge")).to_have_count(8)  # the closest ones; the rest on request
    page.get_by_role("button", name="Show all 25 badges").click()
    expect(page.get_by_test_id("badge")).to_have_count(25)
    first_answer = page.locator('[data-testid="badge"][data-code="first_answer"]')
    expect(first_answer).to_have_attribute("data-earned", "false")
    expect(first_answer).to_contain_text("0 of 1 answer · then Quiz whiz")
    cells = page.get_by_test_id("heatmap").get_by_role("button")
    expect(cells).to_have_count(90)
    expect(page.locator('[data-testid="heatmap"] [data-level="0"]')).to_have_count(90)
    expect(page.get_by_text("No study in this period yet.")).to_be_visible()
    expect(page.get_by_test_id("summary-streak")).to_contain_text("0 days")


def test_answering_quiz_questions_earns_badges_and_lights_up_today(
    page: Page, e2e_server: QuireServer, fake_ollama: FakeOllama, vault: dict[str, Any]
) -> None:
    with e2e_server.client() as api:
        job = generate(api, fake_ollama, "/api/study/quizzes", {"scope": vault["scope"], "count": 5}, quiz_reply(5))
    assert job["status"] == "succeeded", job

    # Study in the app: answer the first two questions right (options are shuffled when a quiz is saved).
    with e2e_server.client() as api:
        questions = api.get(f"/api/study/quizzes/{job['result_id']}").json()["questions"]
    keys = [str(questions[0]["options"].index("option 1.1") + 1), str(questions[1]["options"].index("True") + 1)]
    page.goto(e2e_server.url + f"/study/quizzes/{job['result_id']}")
    page.get_by_role("button", name="Start the quiz").click()
    for key in keys:
        expect(page.get_by_test_id("question")).to_be_visible()
        page.keyboard.press(key)
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("feedback")).to_have_attribute("data-correct", "true")
        page.keyboard.press("Enter")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Dashboard").click()
    expect(page).to_have_url(re.compile(r"/dashboard$"))
    earned = page.locator('[data-testid="badge"][data-earned="true"]')
    expect(earned.filter(has_text="First answer")).to_contain_text(re.compile(r"Earned \w{3} \d{1,2}"))
    expect(earned.filter(has_text="First steps")).to_be_visible()
    expect(page.get_by_test_id("badges-earned")).to_have_text(re.compile(r"^[2-9] of 25 earned$"))
    # Earned badges come first; an unearned one shows its progress.
    expect(page.get_by_test_id("badge").first).to_have_attribute("data-earned", "true")
    page.get_by_role("button", name="Show all 25 badges").click()
    expect(page.locator('[data-testid="badge"][data-code="quiz_whiz"]')).to_contain_text("2 of 100 answers")

    expect(page.get_by_test_id("summary-sessions")).to_contain_text("1")
    expect(page.get_by_test_id("summary-streak")).to_contain_text("1 day")
    expect(page.get_by_test_id("summary-today")).not_to_contain_text("0 min")

    today = date.today()
    cell = page.locator(f'[data-testid="heatmap"] [data-date="{today.isoformat()}"]')
    expect(cell).to_have_attribute("data-level", "1")
    label = re.compile(rf"{today.day}, {today.year}: .+ in 1 session, 2 activities$")
    expect(cell).to_have_attribute("aria-label", label)
    expect(page.locator('[data-testid="heatmap"] [data-level="0"]')).to_have_count(89)

    # The day detail (today is selected by default; picking it again keeps it).
    cell.click()
    detail = page.get_by_test_id("day-detail")
    expect(detail).to_have_attribute("data-date", today.isoformat())
    expect(detail.get_by_test_id("day-session")).to_contain_text("2 quiz answers")
    # Another day, then back by keyboard.
    cell.focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(detail).to_contain_text("No study on this day.")

    expect(page.get_by_test_id("breakdown")).to_contain_text("2 quiz answers")
    vault_panel = page.get_by_test_id("vault-panel")
    expect(vault_panel).to_contain_text("Documents")
    expect(vault_panel).to_contain_text("gemma4:e4b")
    expect(vault_panel).to_contain_text("None. Quire only goes online when you import a web page by its URL.")


def test_the_processes_panel_shows_this_server_alive(page: Page, e2e_server: QuireServer) -> None:
    page.goto(e2e_server.url + "/dashboard")
    panel = page.get_by_test_id("workers-panel")
    expect(panel).to_contain_text("1 process alive on this database")
    row = panel.get_by_test_id("worker-row").filter(has_text="this window's server")
    expect(row).to_contain_text("alive")
    expect(row).to_contain_text("server")
