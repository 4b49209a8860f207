"""Reading the catalog: small value types and a read-only SQLite connection.

The value types are named tuples: immutable like frozen dataclasses, and made in a fraction of the
time when the module loads, which every command does.
"""
from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import NamedTuple

from bot.catalog.errors import DataImportError

SCHEMA_VERSION = 5  # 2: rulings keyed by card, language and text, with their sources; 3: the bundled CR;
                    # 4: printed texts in other languages; 5: names' printings counted per card file


class Face(NamedTuple):
    name: str
    type_line: str
    oracle_text: str
    mana_cost: str


class Card(NamedTuple):
    oracle_id: str
    name: str
    layout: str
    type_line: str
    oracle_text: str
    mana_cost: str
    faces: tuple[Face, ...] = ()
    image_uri: str | None = None
    kind: str = "card"

    @property
    def front(self) -> Face:
        """The characteristics a card has in a library: its front face (CR 711.8 / 712.8)."""
        if self.faces:
            return self.faces[0]
        return Face(self.name, self.type_line, self.oracle_text, self.mana_cost)

    @property
    def is_land(self) -> bool:
        return "Land" in self.front.type_line.split("—")[0]


class PrintedText(NamedTuple):
    """A card's name, type line and text as printed in ``lang`` (faces joined as Oracle's are)."""
    lang: str
    name: str | None
    type_line: str
    text: str


class RulingSource(NamedTuple):
    """A document a ruling came from, with the date and author it gives."""
    document: str                    # the document's key (kind and file name)
    kind: str                        # scryfall-rulings | mtgjson | seed
    path: str
    published_at: str | None
    source: str                      # wotc | scryfall | unknown

    @property
    def name(self) -> str:
        return Path(self.path).name

    def as_dict(self) -> dict:
        return {"document": self.document, "kind": self.kind, "file": self.name,
                "published_at": self.published_at, "source": self.source}


class Ruling(NamedTuple):
    id: int
    oracle_id: str
    published_at: str | None
    source: str
    lang: str
    text: str
    status: str                      # original | translation | machine | partial
    original_id: int | None
    document: str
    wordings: tuple[str, ...] = ()
    mixed_langs: tuple[str, ...] = ()
    sources: tuple = ()


_RULING_COLUMNS = ("r.id, r.oracle_id, r.published_at, r.source, r.lang, r.text, r.status,"
                   " r.original_id, d.key, r.wordings, r.mixed_langs")


def _ruling(row) -> Ruling:
    return Ruling(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], row[8],
                  tuple(json.loads(row[9])) if row[9] else (),
                  tuple(row[10].split(",")) if row[10] else ())


def _file_identity(path: Path) -> tuple | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_dev, stat.st_ino, stat.st_mtime_ns


class Catalog:
    """The catalog file, opened read-only. Safe to share between threads."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"no catalog at {self.path}: run 'wayfinder data import' or 'make run'")
        self._opened = _file_identity(self.path)
        try:
            self.con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
            self.con.execute("SELECT 1 FROM cards LIMIT 1").fetchall()   # a catalog: it has the cards table
        except sqlite3.DatabaseError as exc:
            raise DataImportError(str(self.path), f"not a catalog file: {exc}") from exc
        self._lock = threading.Lock()
        self._cards: dict[str, Card] = {}

    def close(self) -> None:
        self.con.close()

    def replaced(self) -> bool:
        """Whether an import has put another file in this catalog's place since it was opened
        (by this process or another one: imports rename a new file over the old)."""
        return _file_identity(self.path) != self._opened

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        with self._lock:
            return self.con.execute(sql, params).fetchall()

    def card(self, oracle_id: str) -> Card | None:
        cached = self._cards.get(oracle_id)
        if cached:
            return cached
        rows = self.query("SELECT oracle_id, name, layout, type_line, oracle_text, mana_cost, faces,"
                          " image_uri, kind FROM cards WHERE oracle_id = ?", (oracle_id,))
        if not rows:
            return None
        r = rows[0]
        faces = tuple(Face(f["name"], f["type_line"], f["oracle_text"], f["mana_cost"])
                      for f in json.loads(r[6])) if r[6] else ()
        card = Card(r[0], r[1], r[2], r[3], r[4], r[5], faces, r[7], r[8])
        if len(self._cards) < 4096:
            self._cards[oracle_id] = card
        return card

    def card_by_english_name(self, name: str) -> Card | None:
        rows = self.query("SELECT oracle_id FROM cards WHERE name = ? COLLATE NOCASE ORDER BY kind = 'card' DESC",
                          (name,))
        return self.card(rows[0][0]) if rows else None

    def names(self, oracle_id: str) -> dict[str, list[str]]:
        """Printed names per language, whole-card names first."""
        out: dict[str, list[str]] = {}
        for lang, name in self.query("SELECT lang, name FROM names WHERE oracle_id = ? ORDER BY lang, face, name",
                                     (oracle_id,)):
            out.setdefault(lang, []).append(name)
        return out

    def printed_name(self, oracle_id: str, lang: str) -> str | None:
        rows = self.query("SELECT name FROM names WHERE oracle_id = ? AND lang = ? ORDER BY face, name LIMIT 1",
                          (oracle_id, lang))
        return rows[0][0] if rows else None

    def printed_text(self, oracle_id: str, lang: str) -> PrintedText | None:
        """The card's text as printed in ``lang``, if the catalog holds it."""
        rows = self.query("SELECT face, name, type_line, text FROM printed_texts WHERE oracle_id = ? AND lang = ?"
                          " ORDER BY face", (oracle_id, lang))
        whole = [r for r in rows if r[0] == -1]
        if whole:
            return PrintedText(lang, whole[0][1], whole[0][2], whole[0][3])
        if not rows:
            return None
        return PrintedText(lang, " // ".join(r[1] or "" for r in rows), " // ".join(r[2] for r in rows),
                           "\n//\n".join(r[3] for r in rows))

    def rulings(self, oracle_id: str) -> list[Ruling]:
        rows = self.query(f"SELECT {_RULING_COLUMNS} FROM rulings r JOIN documents d ON d.id = r.document_id"
                          " WHERE r.oracle_id = ? ORDER BY r.published_at, d.id, r.position", (oracle_id,))
        return self._with_sources(rows)

    def rulings_by_id(self, ids: list[int]) -> dict[int, Ruling]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self.query(f"SELECT {_RULING_COLUMNS} FROM rulings r JOIN documents d ON d.id = r.document_id"
                          f" WHERE r.id IN ({marks})", tuple(ids))
        return {r.id: r for r in self._with_sources(rows)}

    def _with_sources(self, rows: list[tuple]) -> list[Ruling]:
        """Rulings with every document each came from, earliest first."""
        ids = [row[0] for row in rows]
        sources: dict[int, list[RulingSource]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            for ruling_id, *fields in self.query(
                    "SELECT s.ruling_id, d.key, d.kind, d.path, s.published_at, s.source FROM ruling_sources s"
                    f" JOIN documents d ON d.id = s.document_id WHERE s.ruling_id IN ({','.join('?' * len(chunk))})"
                    " ORDER BY s.published_at IS NULL, s.published_at, d.id", tuple(chunk)):
                sources.setdefault(ruling_id, []).append(RulingSource(*fields))
        return [_ruling(row)._replace(sources=tuple(sources.get(row[0], ()))) for row in rows]

    def info(self) -> dict:
        """What the catalog holds: counts per language, sources, dates, imports."""
        names = dict(self.query("SELECT lang, count(*) FROM names GROUP BY lang ORDER BY count(*) DESC"))
        rulings = dict(self.query("SELECT lang, count(*) FROM rulings GROUP BY lang ORDER BY count(*) DESC"))
        sources = dict(self.query("SELECT source, count(*) FROM rulings GROUP BY source"))
        statuses = dict(self.query("SELECT status, count(*) FROM rulings GROUP BY status"))
        dates = self.query("SELECT min(published_at), max(published_at) FROM rulings")[0]
        editions = [r[0] for r in self.query(
            "SELECT effective_date FROM cr_editions WHERE lang = 'en' ORDER BY effective_date")]
        imports = [{"path": p, "kind": k, "imported_at": t, "counts": json.loads(c), "warnings": w}
                   for p, k, t, c, w in self.query(
                       "SELECT path, kind, imported_at, counts, warnings FROM imports ORDER BY id")]
        return {
            "cards": self.query("SELECT count(*) FROM cards")[0][0],
            "names": sum(names.values()),
            "names_per_language": names,
            "rulings": sum(rulings.values()),
            "rulings_per_language": rulings,
            "ruling_sources": sources,
            "ruling_statuses": statuses,
            "ruling_dates": {"first": dates[0], "last": dates[1]},
            "rules_editions": editions,
            "imports": imports,
        }
