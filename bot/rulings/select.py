"""Choose which rulings a reader sees, in which language, and filter them by a search.

Rulings are stored as written: English originals, and translations that point to the English
original they render. For a reply language the reader gets each ruling in that language where a
translation exists, with its English original beside it (the source of truth), and the English
text where none does.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rapidfuzz import fuzz

from bot.catalog import Card, Catalog, Ruling
from bot.text import fold

SEARCH_MIN_SCORE = 85
MAX_SEARCH_CHARS = 100


@dataclass(frozen=True)
class RulingEntry:
    text: str                         # in ``lang``
    lang: str
    status: str                       # original | translation | machine | partial
    published_at: str | None
    source: str                       # wotc | scryfall | unknown
    original: str | None = None       # the English original, when ``text`` is a translation
    wordings: tuple[str, ...] = ()    # other wordings of the same ruling, folded into this one
    untranslated: bool = False        # English shown because this ruling has no translation

    @property
    def is_translation(self) -> bool:
        return self.status in ("translation", "machine", "partial")


@dataclass(frozen=True)
class RulingsReport:
    card: Card
    lang: str                         # the reply language asked for
    entries: tuple[RulingEntry, ...]
    no_translation: bool = False      # nothing in ``lang``: English originals shown
    search: str | None = None
    total: int = 0                    # before the search filter
    printed_names: dict = field(default_factory=dict)

    @property
    def display_name(self) -> str:
        names = self.printed_names.get(self.lang)
        return names[0] if names else self.card.name


def _dedupe(rulings: list[Ruling]) -> list[Ruling]:
    seen: set[tuple] = set()
    out = []
    for r in rulings:
        key = (r.published_at, fold(r.text))
        if key not in seen:
            seen.add(key)
            out.append(r)
    return out


def _sort_key(entry: RulingEntry) -> tuple:
    return (entry.published_at or "9999", )


def rulings_for(catalog: Catalog, oracle_id: str, lang: str, *, search: str | None = None,
                machine: str = "show") -> RulingsReport | None:
    """The rulings of a card for a reader of ``lang``.

    ``machine``: "show" keeps machine translations (marked), "hide" shows their English originals.
    """
    card = catalog.card(oracle_id)
    if card is None:
        return None
    rulings = catalog.rulings(oracle_id)
    english = _dedupe([r for r in rulings if r.lang == "en"])
    foreign = [r for r in rulings if r.lang != "en"]
    linked_ids = [r.original_id for r in foreign if r.original_id]
    originals = catalog.rulings_by_id(linked_ids)

    def original_of(r: Ruling) -> Ruling | None:
        return originals.get(r.original_id) if r.original_id else None

    def english_entry(r: Ruling, untranslated: bool = False) -> RulingEntry:
        return RulingEntry(r.text, "en", "original", r.published_at, r.source, None, r.wordings, untranslated)

    entries: list[RulingEntry] = []
    no_translation = False
    translated = [r for r in foreign if r.lang == lang] if lang != "en" else []
    if translated:
        shown_originals: set[str] = set()
        for r in translated:
            original = original_of(r)
            if original:
                shown_originals.add(fold(original.text))
            same_card = original is not None and original.oracle_id == r.oracle_id
            source = r.source if r.source != "unknown" else (original.source if original else "unknown")
            date = r.published_at or (original.published_at if same_card else None)
            if r.status == "machine" and machine == "hide" and original:
                entries.append(RulingEntry(original.text, "en", "original", date, source))
                continue
            entries.append(RulingEntry(r.text, r.lang, r.status, date, source,
                                       original.text if original else None, r.wordings))
        for r in english:
            if fold(r.text) not in shown_originals:
                entries.append(english_entry(r, untranslated=True))
    else:
        no_translation = lang != "en" and bool(rulings)
        base = english or _dedupe([o for o in (original_of(r) for r in foreign) if o])
        entries = [english_entry(r) for r in base]
        if not entries and foreign:  # only translations, no English known: show them as they are
            entries = [RulingEntry(r.text, r.lang, r.status, r.published_at, r.source, None, r.wordings)
                       for r in foreign]
    entries.sort(key=_sort_key)
    total = len(entries)
    if search:
        entries = [e for e in entries if matches(search, e)]
    return RulingsReport(card, lang, tuple(entries), no_translation, search, total,
                         catalog.names(oracle_id))


def matches(search: str, entry: RulingEntry) -> bool:
    """Whether a ruling mentions ``search`` (in its own language or in its English original):
    the phrase itself, or each of its words, allowing a typo and other word endings."""
    wanted = fold(search[:MAX_SEARCH_CHARS])
    if not wanted:
        return True
    words = [w for w in wanted.split() if len(w) >= 3] or wanted.split()
    for text in (entry.text, entry.original, *entry.wordings):
        if not text:
            continue
        folded = fold(text)
        if wanted in folded:
            return True
        vocabulary = set(folded.split())
        if all(_word_found(w, vocabulary) for w in words):
            return True
    return False


def _word_found(word: str, vocabulary: set[str]) -> bool:
    if word in vocabulary:
        return True
    stem = word[: max(4, len(word) - 2)]
    return any(v.startswith(stem) or (abs(len(v) - len(word)) <= 2 and fuzz.ratio(word, v) >= SEARCH_MIN_SCORE)
               for v in vocabulary)
