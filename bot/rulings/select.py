"""Choose which rulings a reader sees, in which language, and filter them by a search.

Rulings are stored as written: English originals, and translations that point to the English
original they render. For a reply language the reader gets, ruling by ruling, the first that exists:

1. the ruling in the reader's language (a translation carries its English original, the source of
   truth, and is marked when machine-made or partly translated);
2. the English original, marked "not translated yet";
3. the text in whatever language the catalog holds, labelled with that language ("Portuguese — no
   English text in the catalog"): never under an English label.
"""
from __future__ import annotations

from typing import NamedTuple

from bot.catalog import Card, Catalog, Ruling
from bot.catalog.store import PrintedText
from bot.text import fold

SEARCH_MIN_SCORE = 85
MAX_SEARCH_CHARS = 100

# Why a ruling is shown in its language (``RulingEntry.shown``)
IN_READER_LANGUAGE = "reader"       # the reader's language (for an English reader: English)
ENGLISH_FALLBACK = "english"        # no text in the reader's language: the English original
MACHINE_HIDDEN = "machine-hidden"   # the server hides machine translations: the English original
NO_ENGLISH = "no-english"           # neither the reader's language nor English: what exists


class OtherCard(NamedTuple):
    """The card a ruling was published for, when it is not the card asked about: a translation
    can render an English original published for another card (the same ruling, several cards)."""
    oracle_id: str
    name: str                         # English
    printed: str | None               # its name in the reader's language, where the catalog has it


class RulingEntry(NamedTuple):
    """One ruling as a reader sees it (a named tuple, like the catalog's value types)."""
    text: str                         # in ``lang``
    lang: str                         # the language ``text`` is written in
    status: str                       # original | translation | machine | partial
    published_at: str | None
    source: str                       # wotc | scryfall | unknown
    wordings: tuple[str, ...] = ()    # other wordings of the same ruling, folded into this one
    untranslated_sentences: tuple[str, ...] = ()   # languages of sentences left untranslated
    shown: str = IN_READER_LANGUAGE   # why it is shown in ``lang``: see the constants above
    sources: tuple = ()               # the documents that hold it (bot.catalog.RulingSource)
    original: RulingEntry | None = None   # the English original, when ``text`` is a translation:
    #                                       its own date, source, documents and card
    other_card: OtherCard | None = None   # the card ``text`` was published for, if not this one

    @property
    def is_translation(self) -> bool:
        return self.lang != "en"

    @property
    def english_original(self) -> str | None:
        return self.original.text if self.original else None


class RulingsReport(NamedTuple):
    """A card's rulings for a reader of ``lang``."""
    card: Card
    lang: str                         # the reply language asked for
    entries: tuple[RulingEntry, ...]
    search: str | None                # the search they were filtered by
    total: int                        # before the search filter
    printed_names: dict               # language → the card's printed names
    printed: PrintedText | None       # the card's text as printed in ``lang`` (not English)

    @property
    def display_name(self) -> str:
        names = self.printed_names.get(self.lang)
        return names[0] if names else self.card.name

    @property
    def no_translation(self) -> bool:
        """Nothing in the reader's language: every ruling is shown in English."""
        return (self.lang != "en" and bool(self.entries)
                and all(e.shown == ENGLISH_FALLBACK for e in self.entries))

    @property
    def no_english(self) -> bool:
        """Neither the reader's language nor English for any ruling: shown in what exists."""
        return bool(self.entries) and all(e.shown == NO_ENGLISH for e in self.entries)

    @property
    def other_languages(self) -> list[str]:
        """The languages shown that are neither the reader's nor English, in order of appearance."""
        return list(dict.fromkeys(e.lang for e in self.entries if e.shown == NO_ENGLISH))


def _sort_key(entry: RulingEntry) -> tuple:
    return (entry.published_at or "9999", )


def dated(r: Ruling, original: Ruling | None) -> tuple[str | None, str]:
    """The date and source a ruling is shown under: its own, as its documents give them. A
    translation's are completed from the English original it renders (the date only when both are on
    the same card); an original's never from a translation, whose document speaks for itself only."""
    same_card = original is not None and original.oracle_id == r.oracle_id
    source = r.source if r.source != "unknown" else (original.source if original else "unknown")
    return r.published_at or (original.published_at if same_card else None), source


class Version(NamedTuple):
    """The version of a ruling a reader sees."""
    ruling: Ruling                    # the text shown
    shown: str                        # why it is shown in its language: see the constants above
    original: Ruling | None           # the English original it renders, when a translation is shown


def version_shown(r: Ruling, original: Ruling | None, lang: str, machine: str = "show") -> Version:
    """Which version of the ruling ``r`` a reader of ``lang`` sees (``original``: the English
    original ``r`` renders, if a translation): ``r`` in the reader's language, unless it is a
    machine translation the server hides (``machine`` "hide") whose original exists; else the
    English original (``r`` itself when English); else ``r`` in the language it exists in. Its
    date and source: ``dated(version.ruling, version.original)``."""
    if r.lang == lang:
        if r.status == "machine" and machine == "hide" and original is not None:
            return Version(original, MACHINE_HIDDEN, None)
        return Version(r, IN_READER_LANGUAGE, original)
    english = IN_READER_LANGUAGE if lang == "en" else ENGLISH_FALLBACK
    if r.lang == "en":
        return Version(r, english, None)
    if original is not None:
        return Version(original, english, None)
    return Version(r, NO_ENGLISH, None)


def rulings_for(catalog: Catalog, oracle_id: str, lang: str, *, search: str | None = None,
                machine: str = "show") -> RulingsReport | None:
    """The rulings of a card for a reader of ``lang``, each in the first language that exists.

    ``machine``: "show" keeps machine translations (marked), "hide" shows their English originals.
    """
    card = catalog.card(oracle_id)
    if card is None:
        return None
    rulings = catalog.rulings(oracle_id)
    english = [r for r in rulings if r.lang == "en"]   # one ruling per text: the importer folds them
    foreign = [r for r in rulings if r.lang != "en"]
    originals = catalog.rulings_by_id([r.original_id for r in foreign if r.original_id])

    def original_of(r: Ruling) -> Ruling | None:
        return originals.get(r.original_id) if r.original_id else None

    other_cards: dict[str, OtherCard] = {}

    def other_card(r: Ruling) -> OtherCard | None:
        if r.oracle_id == oracle_id:
            return None
        if r.oracle_id not in other_cards:
            other = catalog.card(r.oracle_id)
            printed = catalog.printed_name(r.oracle_id, lang) if lang != "en" else None
            other_cards[r.oracle_id] = OtherCard(r.oracle_id, other.name if other else r.oracle_id, printed)
        return other_cards[r.oracle_id]

    def english_entry(r: Ruling, shown: str) -> RulingEntry:
        """An English original under its own date, source, documents and card (unknown when its
        documents give none: never those of a translation of it)."""
        return RulingEntry(r.text, "en", "original", r.published_at, r.source, r.wordings, r.mixed_langs, shown,
                           r.sources, None, other_card(r))

    def entry(r: Ruling, original: Ruling | None) -> RulingEntry:
        """The version of ``r`` shown (version_shown): an English original, or a text in another
        language (beside its English original when it has one)."""
        version = version_shown(r, original, lang, machine)
        shown = version.ruling
        if shown.lang == "en":
            return english_entry(shown, version.shown)
        date, source = dated(shown, version.original)
        return RulingEntry(shown.text, shown.lang, shown.status, date, source, shown.wordings, shown.mixed_langs,
                           version.shown, shown.sources,
                           english_entry(original, IN_READER_LANGUAGE) if original else None)

    entries: list[RulingEntry] = []
    shown_english: set[str] = set()   # folded English texts already rendered, in any language
    for r in foreign:
        if r.lang == lang:
            original = original_of(r)
            if original:
                shown_english.add(fold(original.text))
            entries.append(entry(r, original))
    for r in english:
        if fold(r.text) not in shown_english:
            shown_english.add(fold(r.text))
            entries.append(entry(r, None))
    for r in foreign:   # translations into other languages: their English original, else themselves
        if r.lang == lang:
            continue
        original = original_of(r)
        if original is None or fold(original.text) not in shown_english:
            if original:
                shown_english.add(fold(original.text))
            entries.append(entry(r, original))
    entries.sort(key=_sort_key)
    total = len(entries)
    if search:
        entries = [e for e in entries if matches(search, e)]
    printed = catalog.printed_text(oracle_id, lang) if lang != "en" else None
    return RulingsReport(card, lang, tuple(entries), search, total, catalog.names(oracle_id), printed)


def matches(search: str, entry: RulingEntry) -> bool:
    """Whether a ruling mentions ``search`` (in its own language or in its English original):
    the phrase itself, or each of its words, allowing a typo and other word endings."""
    wanted = fold(search[:MAX_SEARCH_CHARS])
    if not wanted:
        return True
    words = [w for w in wanted.split() if len(w) >= 3] or wanted.split()
    for text in (entry.text, entry.english_original, *entry.wordings):
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
    from rapidfuzz import fuzz   # loaded when first needed: one-shot commands skip it
    if word in vocabulary:
        return True
    stem = word[: max(4, len(word) - 2)]
    return any(v.startswith(stem) or (abs(len(v) - len(word)) <= 2 and fuzz.ratio(word, v) >= SEARCH_MIN_SCORE)
               for v in vocabulary)
