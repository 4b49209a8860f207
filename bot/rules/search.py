"""Searching the Comprehensive Rules by words, the way a judge reads them.

Rule texts and glossary entries are indexed as folded words (case, accents and punctuation aside)
reduced to their singular ("cards" → "card", "explores" → "explore", "abilities" → "ability").
A query matches a rule only when every word of it is there — a nonsense query matches nothing,
rather than whatever is least unlike it — and rules are ranked by how closely the words stand:
the phrase as typed first, then the words close together, then anywhere in the rule. The Rules
often say a thing in other words than players do; ``EQUIVALENTS`` lists the few such phrasings
(an "empty library" is, in the rules' words, "a library with no cards in it").
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache


from bot.text import fold

# Words that carry no meaning for a search (kept in the index, skipped in queries of several words)
STOPWORDS = frozenset("""a an the of to in on at by for from with and or is are be been it its this that
these those their there they them as if then than which who whose what when where""".split())

# A query word → the other ways the Comprehensive Rules write it (each a run of words, in order)
EQUIVALENTS: dict[str, tuple[tuple[str, ...], ...]] = {
    "empty": (("no", "card"),),          # 121.4, 704.5b: "a library with no cards in it"
}
NEAR = 4            # words apart at most, for "close together"
TYPO_SCORE = 85     # a query word not in the rules is read as the closest word at this similarity


def stem(word: str) -> str:
    """The singular of an English word, roughly and consistently: enough to match plurals and
    third persons ("creatures", "explores", "abilities", "passes") to their base form."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is")):
        return word
    if word.endswith("s"):
        return word[:-1]
    return word


_TYPOGRAPHY = str.maketrans({"’": "'", "‘": "'", "“": " ", "”": " ", "–": " ", "—": " ", "…": " "})
_ASCII_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=65536)
def stem_cached(word: str) -> str:
    return stem(word)


def words(text: str) -> list[str]:
    """The folded words of ``text`` (as ``bot.text.fold`` splits them), each in its singular."""
    plain = text.translate(_TYPOGRAPHY)
    if plain.isascii():   # most of the rules: the same words as fold gives, much faster
        found = _ASCII_WORD.findall(plain.lower().replace("'", ""))
    else:
        found = fold(text).split()
    return [stem_cached(w) for w in found]


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
        self.titles = {key: words(title) for key, title in titles.items()}
        for key, text in documents.items():
            tokens = words(text)
            self.tokens[key] = tokens
            for position, token in enumerate(tokens):
                places = self.postings[token]
                if key in places:
                    places[key].append(position)
                else:
                    places[key] = [position]
        self.postings = dict(self.postings)
        self.vocabulary = [w for w in self.postings if len(w) >= 4]

    def query_words(self, query: str) -> tuple[list[str], list[str]]:
        """The query's words as the index knows them (a typo looked up once each): all of them,
        and those that say something (its small words left out, unless it has nothing else)."""
        typed = [self._known(w) for w in words(query)]
        return typed, [w for w in typed if w not in STOPWORDS] or typed

    def _known(self, word: str) -> str:
        from rapidfuzz import fuzz, process   # loaded when first needed: one-shot commands skip it
        if word in self.postings or len(word) < 5 or not word.isalpha():
            return word
        best = process.extractOne(word, self.vocabulary, scorer=fuzz.ratio, score_cutoff=TYPO_SCORE)
        return best[0] if best else word

    def _positions(self, word: str) -> dict[str, list[int]]:
        """Where ``word`` or one of its equivalents stands, per document."""
        found = {key: list(p) for key, p in self.postings.get(word, {}).items()}
        for run in EQUIVALENTS.get(word, ()):
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
            if title and [w for w in title if w not in STOPWORDS] == wanted:
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
