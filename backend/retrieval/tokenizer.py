"""The BM25 analyzer: turns a block's or a query's text into index terms (English and German).

Pipeline: Unicode NFKC (full-width forms, ligatures, superscripts become plain characters) → case
folding (``str.casefold``, so ``ß`` → ``ss``) → apostrophes inside words removed (``don't`` → ``dont``)
→ raw tokens → per token: stop words dropped, accents folded (``é`` → ``e``, ``ø`` → ``o``, ``æ`` → ``ae``),
words stemmed. German umlauts are folded by the Snowball German stemmer itself (it reads them to find
word regions), so ``Prüfung``, ``Prufung`` and ``Prüfungen`` all become ``prufung``.

Raw tokens, in order of precedence:

- ``§`` followed by a number is one token, the space dropped: ``§ 3``, ``§3`` → ``§3``; ``§12a`` → ``§12a``.
- a single letter followed by ``++`` or ``#``: ``C++`` → ``c++``, ``C#`` → ``c#``.
- otherwise runs of word characters joined by inner ``-``, ``.``, ``/`` (and ``,`` between digits) form
  one compound: ``ISO-8601``, ``e-mail``, ``v2.1``, ``km/h``, ``1,5``, ``boundary-layer``.

Terms emitted for a raw token:

- a word containing a digit is an identifier and kept whole, never stemmed or dropped: ``404b``, ``q3``.
- any other word: dropped if a stop word of the text's language, else its stem.
- a compound made only of digits (``3.5``, ``2024-01-15``, ``1,000``) is kept whole only.
- any other compound yields the whole (alphabetic parts stemmed: ``e-mails`` → ``e-mail``) AND each part
  of two or more characters analysed as a word (``iso-8601`` → ``iso-8601 iso 8601``; ``boundary-layer``
  → ``boundari-layer boundari layer``), so a query may write the compound either way.
- German compounds with the linking ``s`` after a nominal suffix (``-ung``, ``-heit``, ``-keit``,
  ``-schaft``, ``-tion``, ``-sion``, ``-tät``, ``-tum``, ``-ling``) also yield their parts:
  ``Prüfungsordnung`` → ``prufungsordn prufung ordnung``, so ``Prüfung`` finds it and it finds
  ``Prüfungen``. Compounds without that ``s`` (``Studienordnung``) are not split: no dictionary here.

Language: each text is classified by counting stop words that belong to only one of the two lists
(English ``the``, ``is``, ``what``; German ``der``, ``und``, ``nicht``): at least two hits and twice the
other language's count decides; otherwise the text is *undetermined* (short queries such as
``Prüfungsordnung``, tables) and every word gets both stems and no stop words are dropped. Documents and
queries go through the same code; a German one-word query stemmed both ways still meets the German
stem of the German block.

Measured on Cranfield (scripts/eval_retrieval.py, sparse channel, all 225 queries, nDCG@10, code -1
dropped, nothing excluded, BM25 k1 = 1.2 / b = 0.75 at the time; plain rank_bm25 over ``lower().split()``
0.313): this tokenizer without stemming, stop words or compound parts 0.334; + stemming 0.359; + stop
words 0.365; + compound parts 0.370 (shipped). Leaving out only stemming gives 0.354, only stop words
0.365, so each earns its place. Language detection equals forcing English (0.370: every Cranfield text is
classified English). Treating every text as undetermined (both stems, stop words kept) costs 0.029
(0.341) — but that is the documents' side: with documents detected as English, keyword queries (stop
words stripped, so 223 of 225 are undetermined and get both stems) score 0.3694 against 0.3698 when
forced English, so the undetermined path is nearly free where it is taken, on short queries. German
decompounding changes no Cranfield result (0.370 either way); it exists for German vaults.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import astuple, dataclass
from functools import partial
from pathlib import Path
from typing import Literal, NamedTuple

import numpy as np
import snowballstemmer

Language = Literal["en", "de", "und"]
_LANGUAGES: tuple[Language, ...] = ("en", "de", "und")



def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Snowball's English and German stop-word lists (casefolded, apostrophes removed as the analyzer does).
# Contractions whose apostrophe-less spelling is a real word (shed, ill, well, wont, hell) are left out.
_EN_STOP = _words(
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
    hers herself it its itself they them their theirs themselves what which who whom this that these those
    am is are was were be been being have has had having do does did doing would should could ought im
    youre hes shes were theyre ive youve weve theyve youd theyd youll theyll isnt arent wasnt werent
    hasnt havent hadnt doesnt dont didnt wouldnt shant shouldnt cant cannot couldnt mustnt thats whos
    whats heres theres whens wheres whys hows a an the and but if or because as until while of at by for
    with about against between into through during before after above below to from up down in out on
    off over under again further then once here there when where why how all any both each few more
    most other some such no nor not only own same so than too very"""
)
_DE_STOP = _words(
    """aber alle allem allen aller alles als also am an ander andere anderem anderen anderer anderes anderm
    andern anderr anders auch auf aus bei bin bis bist da damit dann der den des dem die das dass
    derselbe derselben denselben desselben demselben dieselbe dieselben dasselbe dazu dein deine deinem
    deinen deiner deines denn derer dessen dich dir du dies diese diesem diesen dieser dieses doch dort
    durch ein eine einem einen einer eines einig einige einigem einigen einiger einiges einmal er ihn ihm
    es etwas euer eure eurem euren eurer eures für gegen gewesen hab habe haben hat hatte hatten hier hin
    hinter ich mich mir ihr ihre ihrem ihren ihrer ihres euch im in indem ins ist jede jedem jeden jeder
    jedes jene jenem jenen jener jenes jetzt kann kein keine keinem keinen keiner keines können könnte
    machen man manche manchem manchen mancher manches mein meine meinem meinen meiner meines mit muss
    musste nach nicht nichts noch nun nur ob oder ohne sehr sein seine seinem seinen seiner seines selbst
    sich sie ihnen sind so solche solchem solchen solcher solches soll sollte sondern sonst über um und
    uns unsere unserem unseren unser unseres unter viel vom von vor während war waren warst was weg weil
    weiter welche welchem welchen welcher welches wenn werde werden wie wieder will wir wird wirst wo
    wollen wollte würde würden zu zum zur zwar zwischen"""
)
# Only words of one list count as evidence of a language ("in", "so", "was", "will" are in both).
_EN_ONLY = _EN_STOP - _DE_STOP
_DE_ONLY = _DE_STOP - _EN_STOP
_STOP: dict[Language, frozenset[str]] = {"en": _EN_STOP, "de": _DE_STOP, "und": frozenset()}
_STEM_LANGS: dict[Language, tuple[str, ...]] = {"en": ("en",), "de": ("de",), "und": ("en", "de")}

_APOSTROPHE = re.compile(r"(?<=\w)['’](?=\w)")
# Combining marks NFKC could not compose onto their letter (casefolded "İ" is "i" + U+0307) would split a
# word in two; they are accents, so they go.
_LEFTOVER_MARKS = re.compile(r"[\u0300-\u036f]")
_TOKEN = re.compile(
    r"§+\s*\d\w*"  # legal section references
    r"|[^\W\d_](?:\+\+|#)(?![\w+#])"  # C++, C#, F#
    r"|\w+(?:(?:[-./]|(?<=\d),(?=\d))\w+)*"  # words and compounds with inner connectors
)
CONNECTOR = re.compile(r"[-./,_]")
_ALPHA_RUN = re.compile(r"[^\W\d_]+")
_GERMAN_LINK = re.compile(r"^(\w{3,}?(?:ung|heit|keit|schaft|tion|sion|tät|tum|ling))s(\w{3,})$")
# Letters that Unicode does not decompose into base + accent.
_FOLD_EXTRA = str.maketrans({"ø": "o", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "þ": "th", "ı": "i"})
_CACHE_LIMIT = 400_000
_LANGUAGE_MEMO_LIMIT = 20_000


def fold_accents(text: str) -> str:
    """ä → a, é → e, ø → o, æ → ae; ASCII text (the common case) is returned as it is."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFD", text.translate(_FOLD_EXTRA))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def normalise(text: str) -> str:
    """NFKC, case folding and apostrophe removal: the form raw tokens are cut from."""
    if text.isascii():  # ASCII is NFKC-stable and has no combining marks: skip two passes
        text = text.casefold()
    else:
        text = _LEFTOVER_MARKS.sub("", unicodedata.normalize("NFKC", text).casefold())
    return _APOSTROPHE.sub("", text) if "'" in text or "’" in text else text


def raw_tokens(text: str) -> list[str]:
    return _TOKEN.findall(normalise(text))


class _Memo(dict[str, tuple[str, ...]]):
    """key → value of `compute`, filled on first use; `memo[key]` is a C-level lookup when it hits."""

    def __init__(self, compute: Callable[[str], tuple[str, ...]]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: str) -> tuple[str, ...]:
        value = self[key] = self._compute(key)
        return value


def _split_word(word: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(word))


class TermCounts(NamedTuple):
    """A text's distinct terms, space-separated in order of first occurrence (no term contains whitespace:
    tokens never do, and analysing a token only removes characters or stems it), and each term's count as
    little-endian uint32 — the form cached in the blocks table, which the index reads without a Python
    step per term."""

    terms: str
    counts: bytes


@dataclass(frozen=True)
class AnalyzerOptions:
    """Switches kept for measurement (scripts/eval_retrieval.py); the defaults are what was chosen."""

    stem: bool = True
    stopwords: bool = True
    compound_parts: bool = True
    decompound_german: bool = True
    # None = detect per text; "en"/"de"/"und" forces one treatment (for measuring the alternatives).
    language: Language | None = None


class Analyzer:
    """Text → terms. Thread-safe: the only state is memos (word → raw tokens, token → terms per
    language), filled idempotently.

    Speed (why the memos): the token regex costs ~1 µs per token, so a whitespace-separated word is cut
    into raw tokens once and remembered; Zipf's law makes these memos hit >95% of the time. Cutting word
    by word gives the same tokens as cutting the whole text, because no token spans whitespace — except
    ``§ 3``, so a text containing ``§`` is cut whole.
    """

    def __init__(self, options: AnalyzerOptions | None = None) -> None:
        self.options = options or AnalyzerOptions()
        self._stemmers = {"en": snowballstemmer.stemmer("english"), "de": snowballstemmer.stemmer("german")}
        self._new_memos()
        self.fingerprint = _fingerprint(self.options)

    def _new_memos(self) -> None:
        # Fresh dicts instead of clear(): concurrent readers keep using the old ones.
        self._split_memo = _Memo(_split_word)
        self._memo: dict[Language, _Memo] = {
            lang: _Memo(partial(self._analyse, lang=lang)) for lang in _LANGUAGES
        }
        self._language_memo: dict[str, Language] = {}
        self._word_memo: dict[Language, _Memo] = {
            lang: _Memo(partial(self._word_terms, language=lang)) for lang in _LANGUAGES
        }

    def detect_language(self, tokens: Iterable[str]) -> Language:
        if self.options.language is not None:
            return self.options.language
        tokens = tokens if isinstance(tokens, list) else list(tokens)
        en = sum(map(_EN_ONLY.__contains__, tokens))
        de = sum(map(_DE_ONLY.__contains__, tokens))
        if en >= 2 and en >= 2 * de:
            return "en"
        if de >= 2 and de >= 2 * en:
            return "de"
        return "und"

    def language_of(self, text: str) -> Language:
        """`detect_language` of a whole text, remembered (snippets are cut from the same blocks again and
        again; a str caches its own hash, so the lookup does not rehash the text)."""
        found = self._language_memo.get(text)
        if found is None:
            if len(self._language_memo) >= _LANGUAGE_MEMO_LIMIT:
                self._language_memo = {}
            found = self._language_memo[text] = self.detect_language(self.tokens(text))
        return found

    def tokens(self, text: str) -> list[str]:
        """The raw tokens of `text` (same as `raw_tokens`, cut word by word through the memo)."""
        text = normalise(text)
        if "§" in text:
            return _TOKEN.findall(text)
        if len(self._split_memo) >= _CACHE_LIMIT:
            self._new_memos()
        return list(itertools.chain.from_iterable(map(self._split_memo.__getitem__, text.split())))

    def _word_terms(self, word: str, language: Language) -> tuple[str, ...]:
        return tuple(self.terms(word, language))

    def terms(self, text: str, language: Language | None = None) -> list[str]:
        """The index terms of `text`, in order, with repeats (term frequency matters to BM25)."""
        tokens = self.tokens(text)
        memo = self._memo[language or self.detect_language(tokens)]
        if len(memo) >= _CACHE_LIMIT:
            self._new_memos()
            memo = self._memo[language or self.detect_language(tokens)]
        return list(itertools.chain.from_iterable(map(memo.__getitem__, tokens)))

    def term_counts(self, text: str) -> TermCounts:
        """The cacheable form of `terms`: each distinct term once, with how often it occurs."""
        counts = Counter(self.terms(text))  # keeps first-occurrence order
        return TermCounts(" ".join(counts), np.fromiter(counts.values(), dtype="<u4", count=len(counts)).tobytes())

    def word_terms(self, words: list[str], lang: Language) -> list[tuple[str, ...]]:
        """Terms of each whitespace-delimited word of an original text (for snippets), memoised."""
        memo = self._word_memo[lang]
        if len(memo) >= _CACHE_LIMIT:
            self._new_memos()
            memo = self._word_memo[lang]
        return list(map(memo.__getitem__, words))

    def _analyse(self, token: str, lang: Language) -> tuple[str, ...]:
        if token.startswith("§"):
            return ("§" + token.lstrip("§").lstrip(),)
        if token.endswith(("++", "#")):
            return (token,)
        parts = [p for p in CONNECTOR.split(token) if p]
        if len(parts) <= 1:
            return self._word(token, lang)
        if all(p.isdigit() for p in parts):
            return (token,)
        out = [self._stem_compound(token, code) for code in self._langs(lang)]
        if self.options.compound_parts:
            for part in parts:
                if len(part) >= 2:
                    out.extend(self._word(part, lang))
        return tuple(dict.fromkeys(out))

    def _word(self, word: str, lang: Language) -> tuple[str, ...]:
        if any(c.isdigit() for c in word):
            return (fold_accents(word),)
        if self.options.stopwords and word in _STOP[lang]:
            return ()
        out = [self._stem(word, code) for code in self._langs(lang)]
        if self.options.decompound_german and lang != "en":
            out.extend(self._stem(part, "de") for part in _german_parts(word))
        return tuple(dict.fromkeys(out))

    def _stem_compound(self, token: str, code: str) -> str:
        return fold_accents(_ALPHA_RUN.sub(lambda m: self._stem(m.group(0), code), token))

    def _stem(self, word: str, code: str) -> str:
        """Fold accents *before* stemming, so "Café" and "cafe" stem alike — except the umlauts that the
        German stemmer reads itself (it folds them in its output)."""
        if not self.options.stem:
            return fold_accents(word)
        if code == "de" and not word.isascii():
            word = "".join(c if c in "äöü" else fold_accents(c) for c in word)
            return fold_accents(self._stemmers[code].stemWord(word))
        stem: str = self._stemmers[code].stemWord(fold_accents(word))
        return stem

    def _langs(self, lang: Language) -> tuple[str, ...]:
        return _STEM_LANGS[lang] if self.options.stem else ("en",)


def _german_parts(word: str) -> list[str]:
    """Split at a linking ``s`` after a nominal suffix, recursively: Prüfungsordnungsänderung → 3 parts."""
    match = _GERMAN_LINK.match(word)
    if match is None:
        return []
    tail = match.group(2)
    return [match.group(1), *(_german_parts(tail) or [tail])]


def _fingerprint(options: AnalyzerOptions) -> str:
    """Identifies what this analyser produces: its source code, the stemmer library and the options.

    Any edit to this module changes it (even a comment) — deliberately conservative: a stale term cache
    costs one re-analysis at startup, a wrongly trusted one would silently corrupt BM25.
    """
    backend = sys.modules[type(snowballstemmer.stemmer("english")).__module__]  # PyStemmer or pure Python
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update(repr((backend.__name__, getattr(backend, "__version__", ""), astuple(options))).encode())
    return digest.hexdigest()[:16]
