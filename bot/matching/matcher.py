"""Resolve what a person typed to a card: exact, then prefix, word-prefix and fuzzy matches.

Every match is scored on one scale (100 = the whole name, exactly) so that the kinds can be
ranked together: exact before prefix before word-prefix before fuzzy, then real cards before
tokens and art cards, then the spelling most printings use, then the reader's language.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from bot.text import MAX_QUERY_CHARS, clip_query, fold, has_cjk, strip_control
from bot.matching.index import NameIndex

EXACT, PREFIX, WORD_PREFIX, FUZZY = "exact", "prefix", "word-prefix", "fuzzy"
MIN_SCORE = 62.0
CLEAR_LEAD = 3.0
MAX_POSTINGS = 25_000
RARE_WORD = 1_500
CLOSE_TYPO = 90.0   # a ratio this close is a typo of that name: no wider search
READER_NAME_MARGIN = 15.0
LABEL_LIMIT = 100


@dataclass(frozen=True)
class Candidate:
    oracle_id: str
    english_name: str
    name: str          # the printed name that matched
    lang: str          # the language of that name
    score: float
    how: str
    rank: tuple = field(compare=False, repr=False, default=())

    def label(self) -> str:
        """'Agente da Rainha (Queen's Agent)', at most 100 characters."""
        text = self.name if self.name == self.english_name or fold(self.name) == fold(self.english_name) \
            else f"{self.name} ({self.english_name})"
        return text if len(text) <= LABEL_LIMIT else text[: LABEL_LIMIT - 1] + "…"

    def as_dict(self) -> dict:
        return {"oracle_id": self.oracle_id, "name": self.english_name, "matched": self.name,
                "lang": self.lang, "score": round(self.score, 1), "how": self.how}


@dataclass(frozen=True)
class Resolution:
    query: str
    status: str                       # one | ambiguous | none
    candidates: tuple[Candidate, ...]
    truncated: bool = False
    reason: str | None = None         # for none: empty | no-letters | no-match

    @property
    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None

    def as_dict(self) -> dict:
        best = self.best if self.status == "one" else None
        return {
            "query": self.query, "status": self.status,
            "oracle_id": best.oracle_id if best else None,
            "name": best.english_name if best else None,
            "matched": best.name if best else None,
            "lang": best.lang if best else None,
            "score": round(best.score, 1) if best else None,
            "truncated": self.truncated,
            "candidates": [c.as_dict() for c in self.candidates[:5]],
        }


def word_prefix_score(coverage: float, same_count: bool) -> float:
    """Each typed word starts a word of the name, in order; ``coverage``: the share of the name's
    letters typed."""
    return 70.0 + 16.0 * coverage + (3.0 if same_count else 0.0)


WORD_PREFIX_BEST = word_prefix_score(1.0, True)


def fuzzy_score(ratio: float) -> float:
    """Map a similarity ratio onto the shared scale: one typo in a name ≈ a good word-prefix match."""
    if ratio >= 90.0:
        return 86.0 + (ratio - 90.0) * 0.2
    return 86.0 - (90.0 - ratio) * 1.2


def _clearly_exact(ranked: list[Candidate]) -> bool:
    """The first card is named exactly what was typed, and no other card so named stands level
    with it (the same kind of card, printed as often)."""
    if not ranked or ranked[0].how != EXACT:
        return False
    top = ranked[0]
    return len(ranked) == 1 or ranked[1].how != EXACT or ranked[1].rank[1:3] != top.rank[1:3]


class Matcher:
    def __init__(self, index: NameIndex):
        self.index = index

    @classmethod
    def from_catalog(cls, catalog) -> "Matcher":
        return cls(NameIndex.load(catalog))

    # -- public API ---------------------------------------------------------------------------

    def resolve(self, query: str, prefer_lang: str | None = None, limit: int = 10) -> Resolution:
        text, truncated = clip_query(strip_control(query or "").strip(), MAX_QUERY_CHARS)
        key = fold(text)
        if not text:
            return Resolution(text, "none", (), truncated, "empty")
        if not key:
            return Resolution(text, "none", (), truncated, "no-letters")
        found = self._search(key, prefer_lang)
        ranked = self._rank(found, prefer_lang, limit)
        if not ranked or ranked[0].score < MIN_SCORE:
            return Resolution(text, "none", tuple(c for c in ranked if c.score >= 45)[:5], truncated,
                              "no-match")
        top = ranked[0]
        clear = _clearly_exact(ranked) or len(ranked) == 1 or top.score - ranked[1].score >= CLEAR_LEAD
        return Resolution(text, "one" if clear else "ambiguous", tuple(ranked), truncated)

    def exact(self, name: str, prefer_lang: str | None = None) -> Candidate | None:
        """The card named exactly ``name`` (folded), when one is clearly meant — the card
        ``resolve`` finds by that exact name, looked up without searching further."""
        key = fold(strip_control(name or ""))
        if not key:
            return None
        ranked = self._rank({entry: (100.0, EXACT) for entry in self.index.exact_ids(key)}, prefer_lang, 2)
        return ranked[0] if _clearly_exact(ranked) else None

    def autocomplete(self, query: str, prefer_lang: str | None = None, limit: int = 25) -> list[Candidate]:
        text, _ = clip_query(strip_control(query or "").strip(), MAX_QUERY_CHARS)
        key = fold(text)
        if not key:
            return []
        found = self._search(key, prefer_lang, prefix_limit=400, complete=True, shown=limit)
        return self._rank(found, prefer_lang, limit)

    # -- search ------------------------------------------------------------------------------

    def _search(self, key: str, prefer_lang: str | None, prefix_limit: int = 200,
                complete: bool = False, shown: int = 0) -> dict[int, tuple[float, str]]:
        """entry id → (score, how), the best way each entry matched. With ``shown``, the number of
        choices autocomplete shows: when as many cards start with the key, each scoring above any
        word-prefix match ("ma" starts far more than 25 names), word-prefix matches can only give
        those cards another name (the reader's own, see _rank), and only theirs are looked at."""
        found: dict[int, tuple[float, str]] = {}

        def offer(entry: int, score: float, how: str) -> None:
            if entry not in found or found[entry][0] < score:
                found[entry] = (score, how)

        index = self.index
        for entry in index.exact_ids(key):
            offer(entry, 100.0, EXACT)
        exact_found = bool(found)
        for entry in index.prefix_ids(key, prefix_limit):
            if entry not in found:
                offer(entry, 88.0 + 8.0 * len(key) / len(index.keys[entry]), PREFIX)
        tokens = key.split()
        partial_name = False
        if len(tokens) > 1 or not found or complete:
            for entry, coverage, same_count in self._word_prefix(tokens, self._shown_cards(found, shown)):
                offer(entry, word_prefix_score(coverage, same_count), WORD_PREFIX)
                partial_name = partial_name or same_count
        if not exact_found:
            best_so_far = max((s for s, _ in found.values()), default=0.0)
            if best_so_far < 88.0:
                for entry, score in self._fuzzy(key, tokens, prefer_lang, wide=not partial_name):
                    offer(entry, fuzzy_score(score), FUZZY)
        return found

    def _shown_cards(self, found: dict[int, tuple[float, str]], shown: int) -> set[int] | None:
        """The cards found scoring above any word-prefix match, when there are ``shown`` of them."""
        if not shown:
            return None
        cards = {self.index.cards[entry] for entry, (score, _) in found.items() if score > WORD_PREFIX_BEST}
        return cards if len(cards) >= shown else None

    def _word_prefix(self, tokens: list[str],
                     only_cards: set[int] | None = None) -> Iterable[tuple[int, float, bool]]:
        """Entries where each token starts a word of the name, in order ("serv of the cond"); only
        the entries of ``only_cards`` when given."""
        index = self.index
        usable = [t for t in tokens if len(t) >= 2 or has_cjk(t)]
        if not usable:
            return []
        best_ids: set[int] | None = None
        for token in sorted(usable, key=len, reverse=True)[:3]:
            size = 0
            words = index.word_range(token)
            for word_id in words:
                size += index.postings_size(word_id)
                if size > MAX_POSTINGS:
                    break
            if not size:
                return []   # a typed word that starts no word at all
            if size <= MAX_POSTINGS:   # every token must start a word: the names of each, intersected
                ids: set[int] = set()
                for word_id in words:
                    ids.update(index.postings(word_id))
                best_ids = ids if best_ids is None else best_ids & ids
        if not best_ids:
            return []
        if only_cards is not None:
            cards = index.cards
            best_ids = [entry for entry in best_ids if cards[entry] in only_cards]
        out = []
        total_chars = sum(len(t) for t in tokens)
        keys = index.keys
        if len(tokens) == 1:   # each of these names has a word the token starts: nothing to check
            for entry in best_ids:
                words = keys[entry].split()
                out.append((entry, total_chars / sum(map(len, words)), len(words) == 1))
            return out
        for entry in best_ids:
            words = keys[entry].split()
            position = 0
            for token in tokens:
                while position < len(words) and not words[position].startswith(token):
                    position += 1
                if position == len(words):
                    break
                position += 1
            else:
                name_chars = sum(len(w) for w in words)
                out.append((entry, total_chars / name_chars, len(words) == len(tokens)))
        return out

    def _fuzzy(self, key: str, tokens: list[str], prefer_lang: str | None = None,
               wide: bool = True) -> list[tuple[int, float]]:
        """Typos: candidates share a telling word with the query, exactly or nearly, or have the
        same length and first or last letter; then the whole name decides (rapidfuzz ratio).
        Cheapest first: the names sharing a word exactly settle most typos ("talrandd sky summoner"
        shares "summoner"); the scans for nearby words and names run only when none comes close (or
        the close one is not in the reader's language, whose name for it the scans may find),
        and not at all (``wide`` False) when a name has as many words as were typed and each typed
        word starts one of them, in order: a partial name ("scorc dragon")."""
        from rapidfuzz import fuzz, process   # typos only: an exact name need not load it
        index = self.index
        telling = sorted((t for t in tokens if len(t) >= 4 or has_cjk(t)), key=len, reverse=True)[:3]
        spaceless = key.replace(" ", "")
        out: dict[int, float] = {}
        scored: set[int] = set()

        def score(pool: set[int]) -> float:
            """Compare the names of ``pool`` not compared yet; the best ratio so far."""
            entries = list(pool - scored)
            scored.update(entries)
            if entries:
                keys = [index.keys[e] for e in entries]
                for _, ratio, pos in process.extract(key, keys, scorer=fuzz.ratio, limit=30, score_cutoff=60):
                    out[entries[pos]] = ratio
                keys = [k.replace(" ", "") for k in keys]
                for _, ratio, pos in process.extract(spaceless, keys, scorer=fuzz.ratio, limit=30, score_cutoff=60):
                    out[entries[pos]] = max(out.get(entries[pos], 0.0), ratio)
            return max(out.values(), default=0.0)

        def named(word_ids) -> set[int]:
            pool: set[int] = set()
            for w in word_ids:
                if index.postings_size(w) <= RARE_WORD:  # common words ("del", "of") tell nothing
                    pool.update(index.postings(w))
            return pool

        pool = named(w for w in map(index.word_id, telling) if w is not None)
        if len(spaceless) >= 6:  # names that start the same once spaces are ignored ("goliathspinx")
            pool.update(index.spaceless_prefix_ids(spaceless[:5], 300))
        close = score(pool) >= CLOSE_TYPO and (
            prefer_lang is None or index.lang_codes[index.lang_ids[max(out, key=out.get)]] == prefer_lang)
        if close or not wide:
            return list(out.items())
        near = []
        for token in telling:
            for ids, words in index.similar_shape_words(token):
                for _, _, pos in process.extract(token, words, scorer=fuzz.ratio, limit=8, score_cutoff=70):
                    near.append(ids[pos])
        # Whole names compared without spaces: compounds typed as one word ("golgarigildeneinfang"),
        # and typos inside the only word of a name.
        if len(spaceless) >= 4 and score(named(near)) < 88.0:
            for ids, keys in index.similar_shape_keys(spaceless):
                for _, ratio, pos in process.extract(spaceless, keys, scorer=fuzz.ratio, limit=10,
                                                     score_cutoff=70):
                    entry = ids[pos]
                    out[entry] = max(out.get(entry, 0.0), ratio)
        return list(out.items())

    # -- ranking -----------------------------------------------------------------------------

    def _rank(self, found: dict[int, tuple[float, str]], prefer_lang: str | None, limit: int) -> list[Candidate]:
        """The first ``limit`` cards, each under its best name."""
        index = self.index
        if len(found) > limit:
            found = self._contenders(found, limit)
        best: dict[str, Candidate] = {}
        in_reader_language: dict[str, Candidate] = {}
        for entry, (score, how) in found.items():
            card = index.cards[entry]
            oracle_id = index.card_ids[card]
            lang = index.lang_codes[index.lang_ids[entry]]
            name = index.names[entry]
            rank = (-round(score, 3), index.kinds[entry], -index.prints[entry],
                    lang != prefer_lang, lang != "en", index.faces[entry] >= 0, name)
            candidate = Candidate(oracle_id, index.card_names[card], name, lang, score, how, rank)
            current = best.get(oracle_id)
            if current is None or rank < current.rank:
                best[oracle_id] = candidate
            if lang == prefer_lang:
                current = in_reader_language.get(oracle_id)
                if current is None or rank < current.rank:
                    in_reader_language[oracle_id] = candidate
        # A card found under several names is shown under the reader's own name when that one
        # matched too ("tishana" → "Guidevoie de Tishana" for a French reader), unless the
        # query spelled out another name exactly.
        for oracle_id, own in in_reader_language.items():
            top = best[oracle_id]
            if own is not top and top.how != EXACT and own.score >= top.score - READER_NAME_MARGIN:
                best[oracle_id] = Candidate(own.oracle_id, own.english_name, own.name, own.lang, top.score,
                                            top.how, top.rank)
        return sorted(best.values(), key=lambda c: c.rank + (c.oracle_id,))[:limit]

    def _contenders(self, found: dict[int, tuple[float, str]], limit: int) -> dict[int, tuple[float, str]]:
        """The entries of the cards that can be among the first ``limit``. A card ranks by its best
        entry, and the rank starts with score, kind and prints, read without decoding a name: a card
        whose best start is behind the ``limit``-th card's cannot make it ("the" matches 1,900 names)."""
        cards, kinds, prints = self.index.cards, self.index.kinds, self.index.prints
        start: dict[int, tuple] = {}
        for entry, (score, _) in found.items():
            key = (-round(score, 3), kinds[entry], -prints[entry])
            card = cards[entry]
            if card not in start or key < start[card]:
                start[card] = key
        if len(start) <= limit:
            return found
        cutoff = sorted(start.values())[limit - 1]
        return {entry: match for entry, match in found.items() if start[cards[entry]] <= cutoff}
