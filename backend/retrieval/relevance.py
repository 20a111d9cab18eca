"""Is a passage relevant enough to answer from? The signal behind "your documents do not cover this".

A passage is judged against the question's *words*: each content word is a group of alternative index
terms (both stems of a word of undetermined language; stop words dropped; a compound such as
"Facebook-Account" is its parts, each a word of its own). Two things must hold:

1. **Coverage**: the idf-weighted share of the question's words the passage contains, each with BM25's
   term factor capped at 1 (once in a passage of average length counts fully, in a longer one a little
   less), reaches `RELEVANT_COVERAGE`. A word no block holds weighs as much as a word can (the idf of a
   term one block holds), so sharing a common word ("pressure", "rules") is not enough.
2. **No unknown word left out**: a question word that *no block of the vault holds* and that the passage
   does not hold either vetoes it, when such words are at least a fifth of the question's words
   (`DECISIVE_UNKNOWN_SHARE`: a short question is about its unknown word; one unknown among many is a
   detail) and the words the passage holds are less than `VETO_BELOW` of the question's weight. A question
   about the capital of Australia, the rules of cricket or a Facebook account names something the vault
   never mentions; its other words meeting a passage about capitalism or children's moral rules is a
   coincidence. But a passage holding the question's every other word ("When did David Bowie die?", "How
   many cylinders…") answers it even though the vault never uses the question's verb or quantifier: in a
   one-document vault, where most words of a question are unknown, the veto alone refused a fifth of the
   on-topic questions. An unknown word weighs as much as a word can, so a passage lacking it reaches
   `VETO_BELOW` only when the question's other words are many or rare in the vault. What counts there is
   which words the passage holds, not how often (the idf-weighted share it holds, without coverage's term
   factor): the veto is about words missing, and a passage longer than the vault's average that held four
   of a question's six words once each covered less than that share and was vetoed for it. Before the
   veto, such a word is split into parts the vault knows where it can be ("Bachelorstudiengang" →
   "bachelor" + "studiengang"), since closed compounds (German above all) are worded one way in a question
   and another in the text.

Words that frame a question rather than name its subject ("where does X *happen*", "what does X *mean*",
"has *anyone* studied X", "wie *funktioniert* X") are left out of the judgement (`QUESTION_FRAME`): a vault
about photosynthesis need not hold "happen" for "Where does the Calvin cycle happen?" to be covered, and
as unknown words they would veto every passage of a short question. They are a closed set of a few verbs
and indefinite pronouns, listed with their inflections, that Snowball's stop-word lists lack, and the
German question words that list lacks though the English one drops theirs ("wer", "wann", "warum": "who",
"when", "why").

The passage is read with its context: its document's name and the heading path it sits under (a table's
rows do not repeat "penguins"; its file name does). Across languages only identical word forms count: a
German question is not covered by an English passage because a German stem happens to equal an English
one ("backe" and "back"); names, numbers and loanwords still match.

Why these signals and not others: coverage is a ratio in the question's own units, so it compares across
questions; neither needs a vector, so the judgement is the same whichever embedding model runs, or none
(cosines differ by model: a threshold set on one means something else on another). In a small vault idf
flattens and coverage tends to the plain share of words found: the veto is what then keeps a two-word
question with one word in common from passing. Calibration: scripts/eval_relevance.py, on the tuning
halves of Cranfield and of the corpus dev set (scripts/devset.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from backend.retrieval.bm25 import BM25Params, KeywordStatistics
from backend.retrieval.tokenizer import CONNECTOR, Analyzer, Language, fold_accents

# The lowest coverage of a relevant passage, the share of a question's words from which words the vault lacks
# are decisive, and the share of the question's weight held (however often) from which a passage lacking them
# is not vetoed (see scripts/eval_relevance.py for how they were chosen).
RELEVANT_COVERAGE = 0.3
DECISIVE_UNKNOWN_SHARE = 0.2
VETO_BELOW = 0.6
# Words that frame a question instead of naming its subject (see the module), casefolded with accents folded.
_FRAME_WORDS = """
    happen happens happened happening occur occurs occurred occurring
    mean means meant explain explained describe described
    anyone anybody someone somebody anything something everyone everybody
    passiert passieren passierte geschieht geschehen geschah bedeutet bedeuten bedeutete
    funktioniert funktionieren funktionierte erklare erklaren erklart beschreibe beschreiben beschreibt
    jemand jemanden irgendwer etwas
    wer wen wem wessen wann warum wieso weshalb weswegen woher wohin wozu
"""
QUESTION_FRAME = frozenset(_FRAME_WORDS.split())
# Parts of an unknown word are tried from this length on: shorter ones ("ab", "ein") match by chance.
_MIN_PART = 4


@dataclass(frozen=True)
class Word:
    """A content word of the question: its surface form (folded) and its alternative index terms."""

    surface: str
    terms: tuple[str, ...]


def question_words(analyzer: Analyzer, query: str) -> tuple[list[Word], Language]:
    """The question's content words and its language. Stop words are dropped — of either language when
    the question's is undetermined, since a short question often is and its "what", "is", "on" must not
    count; a compound token counts as its parts."""
    tokens = analyzer.tokens(query)
    language = analyzer.detect_language(tokens)
    words: list[Word] = []
    for token in tokens:
        parts = [p for p in CONNECTOR.split(token) if len(p) >= 2] if _is_compound(token) else [token]
        for part in parts:
            surface = fold_accents(part)
            if surface in QUESTION_FRAME:
                continue
            terms = tuple(dict.fromkeys(analyzer.terms(part, language)))
            if terms and (language != "und" or (analyzer.terms(part, "en") and analyzer.terms(part, "de"))):
                words.append(Word(surface, terms))
    return words, language


def _is_compound(token: str) -> bool:
    return bool(CONNECTOR.search(token)) and not all(p.isdigit() for p in CONNECTOR.split(token) if p)


def split_candidates(analyzer: Analyzer, word: Word, language: Language) -> list[tuple[str, str]]:
    """Ways to read an unknown word as two words: (head term, tail term) for each cut leaving two parts of
    at least `_MIN_PART` letters (a German linking "s" before the cut dropped too)."""
    surface = word.surface
    out: list[tuple[str, str]] = []
    for cut in range(_MIN_PART, len(surface) - _MIN_PART + 1):
        heads = {surface[:cut]} | ({surface[:cut - 1]} if surface[cut - 1] == "s" and cut - 1 >= _MIN_PART else set())
        tail = _stem(analyzer, surface[cut:], language)
        out.extend((_stem(analyzer, head, language), tail) for head in heads if tail)
    return [(h, t) for h, t in out if h]


def _stem(analyzer: Analyzer, text: str, language: Language) -> str:
    terms = analyzer.terms(text, language)
    return terms[0] if len(terms) == 1 else ""


def judged_terms(analyzer: Analyzer, query: str) -> list[str]:
    """Every term whose document frequency the judgement of `query` may need (its words' terms and the
    parts an unknown word may be split into)."""
    words, language = question_words(analyzer, query)
    terms = [t for w in words for t in w.terms]
    for word in words:
        terms += [t for pair in split_candidates(analyzer, word, language) for t in pair]
    return terms


@dataclass(frozen=True)
class Judgement:
    relevance: float  # the question's coverage by the passage, 0..1
    vetoed: bool  # words no block holds are decisive, one is missing from the passage too, coverage is low
    relevant: bool  # coverage at the threshold and not vetoed


def coverage(groups: Sequence[tuple[float, tuple[str, ...]]], terms: Sequence[str], average_length: float,
             params: BM25Params) -> float:
    """Share of the query's weight covered by a passage whose index terms are `terms`. `groups`: each
    query word's weight and alternative terms. A query without any term gives 1.0: nothing to judge by."""
    total = sum(weight for weight, _ in groups)
    if total <= 0.0:
        return 1.0
    counts = Counter(terms)
    norm = params.k1 * (1.0 - params.b + params.b * len(terms) / max(average_length, 1e-9))

    def factor(tf: int) -> float:
        return min(1.0, tf * (params.k1 + 1.0) / (tf + norm))

    return sum(weight * max(factor(counts[t]) for t in alts) for weight, alts in groups) / total


def held_share(groups: Sequence[tuple[float, tuple[str, ...]]], held: set[str]) -> float:
    """Share of the query's weight whose words a passage holding the index terms `held` holds at all, however
    often (`coverage` without BM25's term factor). A query without any term gives 1.0."""
    total = sum(weight for weight, _ in groups)
    if total <= 0.0:
        return 1.0
    return round(sum(weight for weight, alts in groups if held.intersection(alts)) / total, 4)


@dataclass(frozen=True)
class Question:
    """A question's content words as the vault knows them: an unknown word read as two known parts where it
    can be; `unknown`: the positions of the words no block holds even so."""

    words: tuple[Word, ...]
    unknown: tuple[int, ...]
    language: Language

    def unknown_words(self) -> list[Word]:
        return [self.words[i] for i in self.unknown]


def read_question(analyzer: Analyzer, stats: KeywordStatistics, query: str) -> Question:
    """`query`'s words against the keyword index's statistics (which must hold the document frequencies of
    `judged_terms(analyzer, query)`)."""
    words, language = question_words(analyzer, query)
    out: list[Word] = []
    unknown: list[int] = []
    for word in words:
        if any(stats.df.get(t, 0) for t in word.terms):
            out.append(word)
            continue
        split = next(((h, t) for h, t in split_candidates(analyzer, word, language)
                      if stats.df.get(h, 0) and stats.df.get(t, 0)), None)
        if split is None:
            unknown.append(len(out))
            out.append(word)
        else:
            out += [Word(word.surface, (split[0],)), Word(word.surface, (split[1],))]
    return Question(tuple(out), tuple(unknown), language)


class Judge:
    """The judgement of passages for one query, against one state of the keyword index's statistics: `stats`
    must hold the document frequencies of `judged_terms(analyzer, query)` and of the corrections, and
    `question` is `read_question(analyzer, stats, query)`.

    `corrections`: for an unknown word (by its surface form), the vault's words a typo away from it
    (backend/retrieval/fuzzy.py). A corrected word is read as those words, but it stays what it was, a word
    the vault does not hold as written: it counts among the unknown words that decide a short question,
    and a passage lacking its correction is vetoed just as one lacking an unknown word is. So a correction
    can only let through a passage holding the word meant; it never makes a question easier to pass.
    """

    def __init__(self, analyzer: Analyzer, stats: KeywordStatistics, params: BM25Params, question: Question,
                 corrections: Mapping[str, Sequence[str]] | None = None) -> None:
        self._analyzer = analyzer
        self._params = params
        self._average = stats.average_length
        self._language = question.language
        self._words = list(question.words)
        self._unknown = question.unknown
        for i in self._unknown:
            close = (corrections or {}).get(self._words[i].surface)
            if close:
                self._words[i] = Word(self._words[i].surface, tuple(close))
        # Unknown words decide in a short question (about them); one among many is a detail the text may lack.
        self._decisive = len(self._unknown) >= DECISIVE_UNKNOWN_SHARE * len(self._words)
        # A word's weight: the idf of its best-known alternative (a word the vault lacks: the rarest idf).
        self._groups = [(min(stats.idf(t) for t in w.terms), w.terms) for w in self._words]

    def __call__(self, text: str, context: str = "") -> Judgement:
        """`text` (a passage) judged with its `context` (its document's name and headings)."""
        language = self._analyzer.language_of(text)
        terms = self._analyzer.terms(f"{context}\n{text}" if context else text, language)
        groups = self._groups
        if _different(self._language, language):
            surfaces = {fold_accents(t) for t in self._analyzer.tokens(f"{context}\n{text}")}
            groups = [(weight, alts if word.surface in surfaces else ("\0",))
                      for (weight, alts), word in zip(self._groups, self._words, strict=True)]
        score = round(coverage(groups, terms, self._average, self._params), 4)
        held = set(terms)
        vetoed = (self._decisive and held_share(groups, held) < VETO_BELOW
                  and any(not held.intersection(groups[i][1]) for i in self._unknown))
        return Judgement(score, vetoed, score >= RELEVANT_COVERAGE and not vetoed)


def _different(question: Language, passage: Language) -> bool:
    return question != passage and "und" not in (question, passage)


def context_of(filename: str, section: str | None) -> str:
    """A passage's context as the judgement reads it: the file's name (without its extension, its
    separators as spaces) and the heading path."""
    stem = filename.rsplit(".", 1)[0] if "." in filename else filename
    return " ".join([stem.replace("-", " ").replace("_", " "), section or ""]).strip()
