"""Helpers for driving the web app in end-to-end tests: real drag-and-drop of files into the page, opening
the command palette, and asking the chat a question."""

from __future__ import annotations

import base64
from typing import Any

from playwright.sync_api import Locator, Page, expect

# Builds a DataTransfer holding real File objects inside the page, exactly what a drag from the desktop
# delivers to the drop handler.
_DATA_TRANSFER_JS = """(files) => {
    const transfer = new DataTransfer();
    for (const file of files) {
        const bytes = Uint8Array.from(atob(file.data), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
    }
    return transfer;
}"""

# Records every status each ingest item shows, so a test can check the stages it went through.
_RECORD_STATUSES_JS = """() => {
    window.__statuses = {};
    const record = () => {
        for (const item of document.querySelectorAll('[data-testid="ingest-item"]')) {
            const seen = (window.__statuses[item.dataset.filename] ??= []);
            if (seen[seen.length - 1] !== item.dataset.status) seen.push(item.dataset.status);
        }
    };
    new MutationObserver(record).observe(document.body, {
        subtree: true, childList: true, attributes: true, attributeFilter: ["data-status"],
    });
}"""


def drop_files(page: Page, target: Locator, files: dict[str, tuple[bytes, str]]) -> None:
    """Drag `files` (name -> (content, mime type)) over `target` and drop them, with real DOM events."""
    payload = [{"name": name, "type": mime, "data": base64.b64encode(data).decode()}
               for name, (data, mime) in files.items()]
    transfer = page.evaluate_handle(_DATA_TRANSFER_JS, payload)
    for event in ("dragenter", "dragover", "drop"):
        target.dispatch_event(event, {"dataTransfer": transfer})


def record_ingest_statuses(page: Page) -> None:
    page.evaluate(_RECORD_STATUSES_JS)


def recorded_statuses(page: Page) -> dict[str, Any]:
    return page.evaluate("() => window.__statuses")


def ask(page: Page, question: str) -> None:
    """Type a question into the chat's message box and send it, as a user does (Enter)."""
    box = page.get_by_role("textbox", name="Message")
    box.fill(question)
    box.press("Enter")


def open_palette(page: Page) -> Locator:
    """Ctrl+K, and its box once it has the focus: keys typed before it has are not the palette's (on a busy
    machine the dialog opens a moment after the shortcut)."""
    page.keyboard.press("Control+k")
    box = page.get_by_role("combobox", name="Type a command")
    expect(box).to_be_focused()
    return box
