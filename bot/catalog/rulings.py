"""Writing rulings: one ruling per card, language and text, whatever the number of sources.

A ruling is keyed by its card, its language and its folded text (``bot.text.fold``: case, accents,
punctuation and spacing do not count). The same ruling arriving again — from Scryfall's file and
from a ruling document, or from one document imported under two file names — gains a source
(``ruling_sources``) instead of a second row; it keeps its earliest date and a known author over
"unknown". The other wordings folded into a ruling are keys too, so a document that states only
the second wording joins the same ruling.
"""
from __future__ import annotations

import json
import sqlite3

from bot.text import fold


class RulingWriter:
    """Add the rulings of one document; ``added`` and ``folded`` count new and merged ones.

    Rulings are written in batches: call ``flush`` once the document is read. The keys of the cards
    met are kept in memory (up to ``MAX_KEYS``), so that a ruling is matched against its card's
    rulings without a query of its own. A document about a few cards looks each of them up; one
    about many first reads which cards have rulings at all, and looks up only those."""

    BATCH = 2000
    LOOKUPS = 32          # cards looked up one by one before reading which cards have rulings
    MAX_KEYS = 100_000    # keys held in memory; beyond, they are read again from the catalog

    def __init__(self, con: sqlite3.Connection, document_id: int):
        self.con, self.document_id = con, document_id
        self.added = self.folded = 0
        self._next_id = (con.execute("SELECT max(id) FROM rulings").fetchone()[0] or 0) + 1
        self._written_below = self._next_id   # rulings from this id on are not written yet
        self._keys: dict[tuple[str, str], dict[str, int]] = {}   # (card, language) → key → ruling id
        self._held = self._lookups = 0
        self._stored: set[tuple[str, str]] | None = None   # the cards (and languages) with rulings, once read
        self._rulings: list[tuple] = []
        self._texts: list[tuple] = []
        self._sources: list[tuple] = []

    def add(self, oracle_id: str, lang: str, text: str, *, published_at: str | None, source: str,
            status: str, position: int, wordings: list[str] | tuple[str, ...] = (),
            mixed_langs: tuple[str, ...] = ()) -> int:
        """Store one ruling (or a new source of a known one); return its id."""
        known = self._known(oracle_id, lang)
        if wordings:
            keys = list(dict.fromkeys(fold(t) for t in (text, *wordings)))
            found = next((known[key] for key in keys if key in known), None)
        else:
            keys = (fold(text),)
            found = known.get(keys[0])
        if found is not None:
            ruling_id = found
            if ruling_id >= self._written_below:
                self.flush()   # the merge reads the ruling as stored
            self._merge(ruling_id, text, published_at, source, wordings, mixed_langs)
            self.folded += 1
        else:
            ruling_id = self._next_id
            self._next_id += 1
            self._rulings.append(
                (ruling_id, oracle_id, published_at, source, lang, text, status, self.document_id, position,
                 json.dumps(list(wordings), ensure_ascii=False) if wordings else None,
                 ",".join(mixed_langs) or None))
            self.added += 1
        for key in keys:
            if key not in known:
                known[key] = ruling_id
                self._held += 1
                self._texts.append((oracle_id, lang, key, ruling_id))
        self._sources.append((ruling_id, self.document_id, published_at, source, position))
        if len(self._sources) >= self.BATCH:
            self.flush()
        return ruling_id

    def _known(self, oracle_id: str, lang: str) -> dict[str, int]:
        """The keys of the card's rulings in ``lang``: read once, then kept up to date."""
        card = oracle_id, lang
        known = self._keys.get(card)
        if known is None:
            if self._held >= self.MAX_KEYS:   # written first: the catalog then answers for them
                self.flush()
                if self._stored is not None:
                    self._stored.update(self._keys)
                self._keys.clear()
                self._held = 0
            known = self._keys[card] = self._stored_keys(card)
        return known

    def _stored_keys(self, card: tuple[str, str]) -> dict[str, int]:
        if self._stored is None and self._lookups >= self.LOOKUPS:
            self._stored = set(self.con.execute("SELECT DISTINCT oracle_id, lang FROM ruling_texts"))
        if self._stored is not None and card not in self._stored:
            return {}
        self._lookups += 1
        keys = dict(self.con.execute("SELECT key, ruling_id FROM ruling_texts WHERE oracle_id = ? AND lang = ?", card))
        self._held += len(keys)
        return keys

    def flush(self) -> None:
        """Write the rulings added since the last batch."""
        con = self.con
        con.executemany("INSERT INTO rulings(id, oracle_id, published_at, source, lang, text, status, document_id,"
                        " position, wordings, mixed_langs) VALUES (?,?,?,?,?,?,?,?,?,?,?)", self._rulings)
        con.executemany("INSERT OR IGNORE INTO ruling_texts(oracle_id, lang, key, ruling_id) VALUES (?,?,?,?)",
                        self._texts)
        con.executemany("INSERT OR IGNORE INTO ruling_sources(ruling_id, document_id, published_at, source, position)"
                        " VALUES (?,?,?,?,?)", self._sources)
        self._rulings.clear()
        self._texts.clear()
        self._sources.clear()
        self._written_below = self._next_id

    def _merge(self, ruling_id: int, text: str, published_at: str | None, source: str,
               wordings, mixed_langs: tuple[str, ...]) -> None:
        con = self.con
        old_text, old_date, old_source, old_wordings, old_mixed = con.execute(
            "SELECT text, published_at, source, wordings, mixed_langs FROM rulings WHERE id = ?",
            (ruling_id,)).fetchone()
        known = json.loads(old_wordings) if old_wordings else []
        seen = {fold(old_text), *(fold(w) for w in known)}
        for wording in (text, *wordings):
            if fold(wording) not in seen:   # another wording (a near-duplicate folded in a document)
                seen.add(fold(wording))
                known.append(wording)
        if published_at and (old_date is None or published_at < old_date):
            old_date = published_at
        if old_source == "unknown":
            old_source = source
        con.execute("UPDATE rulings SET published_at = ?, source = ?, wordings = ?, mixed_langs = ? WHERE id = ?",
                    (old_date, old_source, json.dumps(known, ensure_ascii=False) if known else None,
                     old_mixed or (",".join(mixed_langs) or None), ruling_id))


def forget_document(con: sqlite3.Connection, document_id: int) -> None:
    """A document is imported again: what only it brought goes; rulings it shared with other
    documents stay, with their date and author from the sources left."""
    con.execute("DELETE FROM ruling_sources WHERE document_id = ?", (document_id,))
    con.execute("DELETE FROM rulings WHERE document_id = ? AND id NOT IN (SELECT ruling_id FROM ruling_sources)",
                (document_id,))
    for (ruling_id,) in con.execute("SELECT id FROM rulings WHERE document_id = ?", (document_id,)).fetchall():
        _recompute(con, ruling_id)


def _recompute(con: sqlite3.Connection, ruling_id: int) -> None:
    """Date, author and main document of a ruling from its sources."""
    rows = con.execute("SELECT document_id, published_at, source, position FROM ruling_sources"
                       " WHERE ruling_id = ? ORDER BY published_at IS NULL, published_at, document_id",
                       (ruling_id,)).fetchall()
    document, date, _, position = rows[0]
    known = [r[2] for r in rows if r[2] != "unknown"]
    con.execute("UPDATE rulings SET document_id = ?, published_at = ?, source = ?, position = ? WHERE id = ?",
                (document, date, known[0] if known else "unknown", position, ruling_id))


def move_rulings(con: sqlite3.Connection, from_card: str, to_card: str) -> None:
    """A card's rulings go to another Oracle id; one the target already holds merges into it."""
    for ruling_id, lang, text, wordings in con.execute(
            "SELECT id, lang, text, wordings FROM rulings WHERE oracle_id = ?", (from_card,)).fetchall():
        keys = [fold(text), *(fold(w) for w in (json.loads(wordings) if wordings else []))]
        marks = ",".join("?" * len(keys))
        target = con.execute(f"SELECT ruling_id FROM ruling_texts WHERE oracle_id = ? AND lang = ? AND key IN ({marks})",
                             (to_card, lang, *keys)).fetchone()
        if target is None:
            con.execute("UPDATE rulings SET oracle_id = ? WHERE id = ?", (to_card, ruling_id))
            con.execute("UPDATE OR IGNORE ruling_texts SET oracle_id = ? WHERE ruling_id = ?", (to_card, ruling_id))
            continue
        con.execute("UPDATE OR IGNORE ruling_sources SET ruling_id = ? WHERE ruling_id = ?", (target[0], ruling_id))
        con.execute("UPDATE rulings SET original_id = ? WHERE original_id = ?", (target[0], ruling_id))
        con.execute("DELETE FROM rulings WHERE id = ?", (ruling_id,))
        _recompute(con, target[0])
    con.execute("DELETE FROM ruling_texts WHERE oracle_id = ?", (from_card,))


def upgrade(con: sqlite3.Connection) -> None:
    """Catalogs written before rulings were keyed: every ruling gets its key and its source."""
    con.create_function("fold", 1, fold, deterministic=True)
    con.execute("INSERT OR IGNORE INTO ruling_texts(oracle_id, lang, key, ruling_id)"
                " SELECT oracle_id, lang, fold(text), id FROM rulings ORDER BY id")
    con.execute("INSERT OR IGNORE INTO ruling_sources(ruling_id, document_id, published_at, source, position)"
                " SELECT id, document_id, published_at, source, position FROM rulings")
