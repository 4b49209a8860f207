"""Link each translated ruling to the English original it translates.

Rulings carry no shared identifier across languages, so the pairing is made from what
translation keeps: numbers and symbols (+1/+1), names of cards, quotations, parentheses,
the number of sentences and the relative length of each one. Within a document, each
English original is used at most once and the best-scoring pairs are taken first.
"""
from __future__ import annotations

import math
import re
import sqlite3
from dataclasses import dataclass

from bot.text import fold

_SENTENCES = re.compile(r"(?<=[.!?])\s+(?=[^\s])")
_NEUTRAL = re.compile(r"[+\-−]?\d+(?:/[+\-−]?\d+)?|\{[^}]+\}|\b[A-Z][\w’']+(?:,? [A-Z][\w’']+)*")
_QUOTES = re.compile(r"[\"“”«»„]")
MIN_SCORE = 0.35


@dataclass(frozen=True)
class _Shape:
    length: int
    sentences: tuple[int, ...]
    neutral: frozenset[str]
    quoted: bool
    parenthesis: bool
    words: frozenset[str]


def _shape(text: str) -> _Shape:
    sentences = tuple(len(s) for s in _SENTENCES.split(text.strip()) if s)
    neutral = frozenset(fold(tok) for tok in _NEUTRAL.findall(text) if any(c.isdigit() for c in tok)
                        or len(tok) > 5)
    return _Shape(len(text), sentences, neutral, bool(_QUOTES.search(text)), "(" in text,
                  frozenset(w for w in fold(text).split() if len(w) > 3))


def _score(t: _Shape, o: _Shape) -> float:
    """0..1: how likely the translation ``t`` renders the original ``o``."""
    ratio = t.length / max(o.length, 1)
    score = 1.0 - min(abs(math.log(ratio / 1.15)), 1.0)  # Romance languages run ~15% longer
    if len(t.sentences) == len(o.sentences):
        per = [abs(math.log((a / max(b, 1)) / ratio)) for a, b in zip(t.sentences, o.sentences)]
        score += 1.0 - min(sum(per) / len(per), 1.0)
    else:
        score -= 0.3 * abs(len(t.sentences) - len(o.sentences))
    if t.neutral or o.neutral:
        score += len(t.neutral & o.neutral) / len(t.neutral | o.neutral)
    score += 0.3 if t.quoted == o.quoted else -0.3
    score += 0.3 if t.parenthesis == o.parenthesis else -0.3
    if o.words:  # sentences left in English
        score += len(t.words & o.words) / len(o.words)
    return max(score, 0.0) / 3.6


def assign(translations: list[tuple[int, str]], originals: list[tuple[int, str]]) -> dict[int, int]:
    """Best one-to-one pairing of translation ids to original ids."""
    shapes = {oid: _shape(text) for oid, text in originals}
    pairs = []
    for tid, text in translations:
        shape = _shape(text)
        for oid, oshape in shapes.items():
            pairs.append((_score(shape, oshape), tid, oid))
    pairs.sort(key=lambda p: (-p[0], p[1], p[2]))
    chosen: dict[int, int] = {}
    used: set[int] = set()
    for score, tid, oid in pairs:
        if score < MIN_SCORE or tid in chosen or oid in used:
            continue
        chosen[tid] = oid
        used.add(oid)
    return chosen


def link_translations(con: sqlite3.Connection) -> int:
    """Recompute ``original_id`` for every non-English ruling; return how many are linked."""
    con.execute("UPDATE rulings SET original_id = NULL WHERE lang != 'en'")
    groups = con.execute(
        "SELECT DISTINCT oracle_id, lang, document_id FROM rulings WHERE lang != 'en'").fetchall()
    linked = 0
    for oracle_id, lang, doc in groups:
        rows = con.execute(
            "SELECT id, text, published_at FROM rulings WHERE oracle_id=? AND lang=? AND document_id=?"
            " ORDER BY position", (oracle_id, lang, doc)).fetchall()
        dates = {r[2] for r in rows}
        originals = _candidates(con, oracle_id, dates)
        for tid, oid in assign([(r[0], r[1]) for r in rows], originals).items():
            con.execute("UPDATE rulings SET original_id = ? WHERE id = ?", (oid, tid))
            linked += 1
    return linked


def _candidates(con: sqlite3.Connection, oracle_id: str, dates: set) -> list[tuple[int, str]]:
    dated = [d for d in dates if d]
    same_card = con.execute(
        "SELECT id, text, published_at FROM rulings WHERE oracle_id=? AND lang='en' ORDER BY id",
        (oracle_id,)).fetchall()
    if same_card:
        if dated:
            on_date = [r for r in same_card if r[2] in dated]
            if on_date:
                return _unique([(r[0], r[1]) for r in on_date])
        return _unique([(r[0], r[1]) for r in same_card])
    # No English rulings on this card: the same ruling is often published for several cards
    # on one date (keyword rulings). Look at English rulings from ruling documents.
    marks = ",".join("?" * len(dated))
    where = f"published_at IN ({marks})" if dated else "1"
    rows = con.execute(
        "SELECT r.id, r.text FROM rulings r JOIN documents d ON d.id = r.document_id"
        f" WHERE r.lang='en' AND d.kind='seed' AND {where}"
        " ORDER BY r.source = 'unknown', r.id", dated).fetchall()
    return _unique(rows)


def _unique(rows: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """One candidate per distinct text (the same ruling printed on several cards)."""
    seen: set[str] = set()
    out = []
    for rid, text in rows:
        key = fold(text)
        if key not in seen:
            seen.add(key)
            out.append((rid, text))
    return out
