"""Searching the Comprehensive Rules by words, the way a judge reads them.

Rule texts and glossary entries are indexed as the words of every search are (``bot.analysis``,
as /ask reads them): folded (case, accents and punctuation aside) and reduced to their English
stem ("cards" → "card", "explores" and "exploring" → "explor", "abilities" → "abil"). A query
matches a rule only when every word of it is there — a nonsense query matches nothing, rather
than whatever is least unlike it — and rules are ranked by how closely the words stand: the phrase
as typed first, then the words close together, then anywhere in the rule. The Rules often say a
thing in other words than players do; ``SAID_OTHERWISE`` lists the few such phrasings (an "empty
library" is, in the rules' words, "a library with no cards in it").
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from bot.analysis import stemmed_words, stopwords

RULES_LANG = "en"   # the Comprehensive Rules are searched in English

# A query word → the other ways the Comprehensive Rules write it (each a run of words, in order)
SAID_OTHERWISE: dict[str, tuple[str, ...]] = {
    "empty": ("no cards",),          # 121.4, 704.5b: "a library with no cards in it"
}
NEAR = 4            # words apart at most, for "close together"
TYPO_SCORE = 85     # a query word not in the rules is read as the closest word at this similarity


def words(text: str) -> list[str]:
    """The stems of every word of ``text``, its small words kept: what the index holds."""
    return [stem for _, stem in stemmed_words(text, RULES_LANG, keep_stopwords=True)]


@cache
def _equivalents() -> dict[str, tuple[tuple[str, ...], ...]]:
    """``SAID_OTHERWISE`` as stems: a query word's stem → runs of stems."""
    return {words(word)[0]: tuple(tuple(words(run)) for run in runs) for word, runs in SAID_OTHERWISE.items()}


@dataclass(frozen=True)
class Hit:
    key: str          # a rule number, or "g:" + a glossary term
    score: float


class WordIndex:
    """Where each word stands in each rule and glossary entry."""

    def __init__(self, documents: dict[str, str], titles: dict[str, str]):
        self.order = list(documents)
        self.rank = {key: i for i, key in enumerate(self.order)}
        self.postings: dict[str, dict[str, list[int]]] = defaultdict(dict)
        self.tokens: dict[str, list[str]] = {}
        # the words that say something of each title (its small words left out, as in a query)
        self.titles = {key: [stem for _, stem in stemmed_words(title, RULES_LANG)] for key, title in titles.items()}
        self.stem_of: dict[str, str] = {}   # every word of the rules as written (folded) → its stem
        for key, text in documents.items():
            analysed = stemmed_words(text, RULES_LANG, keep_stopwords=True)
            self.stem_of.update(analysed)
            tokens = [stem for _, stem in analysed]
            self.tokens[key] = tokens
            for position, token in enumerate(tokens):
                places = self.postings[token]
                if key in places:
                    places[key].append(position)
                else:
                    places[key] = [position]
        self.postings = dict(self.postings)
        self.vocabulary = [w for w in self.stem_of if len(w) >= 4]

    def query_words(self, query: str) -> tuple[list[str], list[str]]:
        """The query's stems as the index knows them (a typo looked up once each): all of them,
        and those that say something (its small words left out, unless it has nothing else)."""
        analysed = stemmed_words(query, RULES_LANG, keep_stopwords=True)
        typed = [self._known(word, stem) for word, stem in analysed]
        small = stopwords(RULES_LANG)
        return typed, [stem for (word, _), stem in zip(analysed, typed) if word not in small] or typed

    def _known(self, word: str, stem: str) -> str:
        """A word the rules never use is read as the word they use that is spelt closest to it
        ("flyng" → flying), compared as written: stems are too short to compare ("fli")."""
        from rapidfuzz import fuzz, process   # loaded when first needed: one-shot commands skip it
        if stem in self.postings or len(word) < 5 or not word.isalpha():
            return stem
        best = process.extractOne(word, self.vocabulary, scorer=fuzz.ratio, score_cutoff=TYPO_SCORE)
        return self.stem_of[best[0]] if best else stem

    def _positions(self, word: str) -> dict[str, list[int]]:
        """Where ``word`` or one of its equivalents stands, per document."""
        found = {key: list(p) for key, p in self.postings.get(word, {}).items()}
        for run in _equivalents().get(word, ()):
            first, rest = run[0], run[1:]
            for key, starts in self.postings.get(first, {}).items():
                hits = [s for s in starts
                        if all(any(0 < p - s <= 2 for p in self.postings.get(w, {}).get(key, ())) for w in rest)]
                if hits:
                    found.setdefault(key, []).extend(hits)
        return found

    def search(self, query: str, limit: int = 5, keys: str = "") -> list[Hit]:
        """The best ``limit`` documents holding every word of ``query`` (those whose key starts
        with ``keys``), closest words first."""
        typed, wanted = self.query_words(query)
        if not wanted:
            return []
        places = [self._positions(w) for w in wanted]
        candidates = set(places[0])
        for found in places[1:]:
            candidates &= set(found)
        hits = []
        for key in candidates:
            if not key.startswith(keys):
                continue
            span, ordered = _closest(wanted, [found[key] for found in places])
            if (span == len(wanted) - 1 and ordered) or _holds(self.tokens[key], typed):
                score = 300.0                   # the phrase as typed
            elif span <= NEAR + len(wanted):
                score = 200.0 - 10 * span       # close together
            else:
                score = 100.0 - min(span, 90)   # anywhere in it
            title = self.titles.get(key)
            if title and title == wanted:
                score += 500                    # the rule is named so
            hits.append(Hit(key, score - len(self.tokens[key]) / 1000))
        hits.sort(key=lambda h: (-h.score, self.rank[h.key]))
        return hits[:limit]


def _closest(wanted: list[str], positions: list[list[int]]) -> tuple[int, bool]:
    """The narrowest window holding one position of each word, and whether the words stand in
    the query's order there."""
    if len(positions) == 1:
        return 0, True
    events = sorted((p, i) for i, ps in enumerate(positions) for p in ps)
    best, best_order = 10 ** 9, False
    last: dict[int, int] = {}
    for p, i in events:
        last[i] = p
        if len(last) == len(positions):
            span = max(last.values()) - min(last.values())
            ordered = all(last[j] < last[j + 1] for j in range(len(positions) - 1))
            if span < best or (span == best and ordered and not best_order):
                best, best_order = span, ordered
    return best, best_order


def _holds(tokens: list[str], phrase: list[str]) -> bool:
    n = len(phrase)
    return n > 1 and any(tokens[i:i + n] == phrase for i in range(len(tokens) - n + 1))
