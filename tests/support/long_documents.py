"""Generators of long documents of real-looking prose: Markdown chapters of headed sections, and text PDFs
of a paragraph a page. Seeded, so a test and a benchmark meet the same text; sized by characters or
pages, so a document can be made as long as a test needs (or as the 20-million-character limit allows).
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

TOPICS = ("thermodynamics", "cell biology", "macroeconomics", "graph theory", "organic chemistry",
          "medieval history", "linguistics", "plate tectonics", "neural networks", "number theory")
NOUNS = ("energy", "entropy", "membrane", "protein", "market", "inflation", "vertex", "edge", "bond", "reaction",
         "manuscript", "kingdom", "phoneme", "syntax", "fault", "magma", "gradient", "layer", "prime", "congruence",
         "equilibrium", "catalyst", "hypothesis", "experiment", "observation")
VERBS = ("determines", "constrains", "explains", "reveals", "shapes", "transforms", "limits", "reflects",
         "accelerates", "stabilises")
ADJECTIVES = ("subtle", "central", "classical", "surprising", "well-known", "fragile", "robust", "early", "modern")
OPENERS = ("However,", "In practice,", "As a result,", "By contrast,", "Historically,", "For example,", "")


def sentence(rng: random.Random) -> str:
    text = (f"{rng.choice(OPENERS)} the {rng.choice(ADJECTIVES)} {rng.choice(NOUNS)} {rng.choice(VERBS)} the "
            f"{rng.choice(NOUNS)} of {rng.choice(NOUNS)}s in {rng.choice(TOPICS)}").strip()
    if rng.random() < 0.4:
        text += f", which {rng.choice(VERBS)} how a {rng.choice(NOUNS)} behaves"
    return text[0].upper() + text[1:] + "."


def paragraph(rng: random.Random, sentences: int) -> str:
    return " ".join(sentence(rng) for _ in range(sentences))


def prose_markdown(chars: int, seed: int = 5) -> bytes:
    """Chapters of 3 to 8 headed sections of 2 to 6 paragraphs, at least `chars` characters (ASCII)."""
    rng = random.Random(seed)
    parts: list[str] = []
    written = chapter = 0
    while written < chars:
        chapter += 1
        sections = [f"# Chapter {chapter}: {rng.choice(TOPICS).title()}\n"]
        for section in range(1, rng.randint(4, 9)):
            sections.append(f"\n## {chapter}.{section} The {rng.choice(ADJECTIVES)} {rng.choice(NOUNS)}\n")
            sections.extend("\n" + paragraph(rng, rng.randint(3, 8)) + "\n" for _ in range(rng.randint(2, 6)))
        text = "".join(sections) + "\n"
        parts.append(text)
        written += len(text)
    return "".join(parts).encode()


def make_long_pdf(path: Path, pages: int, seed: int = 9) -> Path:
    """A text PDF of `pages` A4 pages, one paragraph each (about 700 characters); 20,000 pages take a minute."""
    rng = random.Random(seed)
    document = pymupdf.open()
    for number in range(1, pages + 1):
        page = document.new_page(width=595, height=842)
        page.insert_textbox(pymupdf.Rect(50, 50, 545, 792), f"Page {number}. " + paragraph(rng, 6), fontsize=10)
    document.save(path, deflate=True, garbage=1)
    document.close()
    return path
