"""The /ask search index: every rule and glossary entry of the current Comprehensive Rules and
every ruling of the catalog, as stemmed terms in an SQLite FTS5 table (ranked by BM25), plus the
exact printed names of every card for finding cards inside a question.

The index is a file beside the catalog (``catalog.sqlite3.ask``), rebuilt whenever the catalog's
content changes (its key is a digest of what was imported), written to a temporary file and
renamed into place so a reader never sees half of it. Where the catalog's folder cannot be
written, it is built in memory.
"""
from __future__ import annotations

import glob
import hashlib
import logging
import os
import re
import sqlite3
import tempfile
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.analysis import stems
from bot.text import fold, has_cjk

log = logging.getLogger(__name__)

INDEX_VERSION = "10"
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE docs (
    id        INTEGER PRIMARY KEY,
    kind      TEXT NOT NULL,          -- rule | glossary | ruling
    ref       TEXT NOT NULL,          -- rule number, glossary term, ruling id
    oracle_id TEXT,                   -- rulings: the card
    grp       INTEGER NOT NULL,       -- a ruling and its translations share the original's group
    lang      TEXT NOT NULL,
    text      TEXT NOT NULL,
    body      TEXT NOT NULL           -- the indexed terms, in order
);
CREATE INDEX docs_by_ref ON docs(kind, ref);
CREATE INDEX docs_by_group ON docs(grp);
CREATE INDEX docs_by_card ON docs(oracle_id);
CREATE TABLE term_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL) WITHOUT ROWID;
-- two full-text tables, so that the few rules are not drowned by the many rulings
CREATE VIRTUAL TABLE rule_terms USING fts5(body, content='', tokenize='unicode61 remove_diacritics 0');
CREATE VIRTUAL TABLE ruling_terms USING fts5(body, content='', tokenize='unicode61 remove_diacritics 0');
CREATE TABLE card_names (folded TEXT PRIMARY KEY, oracle_id TEXT, words INTEGER NOT NULL) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Doc:
    id: int
    kind: str
    ref: str
    oracle_id: str | None
    group: int
    lang: str
    text: str
    body: str


def catalog_key(catalog) -> str:
    """A digest of what the catalog holds: what was imported, and its counts."""
    digest = hashlib.sha256(INDEX_VERSION.encode())
    for row in catalog.query("SELECT id, path, kind, imported_at, counts FROM imports ORDER BY id"):
        digest.update(repr(row).encode())
    for table in ("cards", "rulings", "cr_rules", "names"):
        digest.update(repr(catalog.query(f"SELECT count(*) FROM {table}")).encode())
    return digest.hexdigest()[:32]


# Ways the rules say a thing that questions say in one word: the word is indexed beside them.
EXPANSIONS = (
    (re.compile(r"\b(?:with )?no cards in (?:it|their library|your library|that player’s library)", re.I), "empty"),
    (re.compile(r"\bput into (?:its owner’s|a|their|your) graveyard from the battlefield\b", re.I), "dies"),
    (re.compile(r"\bleaves? the battlefield\b|\bin a zone other than the battlefield\b", re.I), "leaves"),
    (re.compile(r"\bdestruction\b", re.I), "destroy"),
)


def _expanded(text: str) -> str:
    extra = [word for pattern, word in EXPANSIONS if pattern.search(text)]
    return " ".join((text, *extra))


def _documents(catalog, book):
    """(kind, ref, oracle id, group, lang, text shown, text indexed) of every document."""
    edition = book.current
    if edition is not None:
        for number in edition.order:
            rule = edition.rules[number]
            parent = edition.rules.get(rule.parent) if rule.parent else None
            # a subrule is about its rule's keyword: 702.2c is a deathtouch rule
            about = parent.title if parent is not None and parent.title and "." in parent.number else ""
            yield "rule", number, None, None, "en", rule.text, " ".join((about, rule.text, *rule.examples))
        for term, definition in edition.glossary.items():
            yield "glossary", term, None, None, "en", f"{term}: {definition}", f"{term} {term} {definition}"
    for rid, oracle_id, lang, text, original in catalog.query(
            "SELECT id, oracle_id, lang, text, original_id FROM rulings ORDER BY id"):
        yield "ruling", str(rid), oracle_id, original or rid, lang, text, text


def build(catalog, book, target: sqlite3.Connection) -> None:
    target.executescript(SCHEMA)
    docs, df, total = [], {}, 0
    for i, (kind, ref, oracle_id, group, lang, text, indexed) in enumerate(_documents(catalog, book), start=1):
        body = stems(_expanded(indexed) if lang == "en" else indexed, lang)
        docs.append([i, kind, ref, oracle_id, group, lang, text, " ".join(body)])
        total += len(body)
        for term in set(body):
            df[term] = df.get(term, 0) + 1
    # a ruling's group: the first ruling with the same words (the same ruling printed for several
    # cards is one answer), which its translations join
    first_of: dict[str, int] = {}
    for doc in docs:
        if doc[1] == "ruling" and doc[4] == int(doc[2]):
            first_of.setdefault(doc[7], doc[0])
    by_ref = {doc[2]: doc for doc in docs if doc[1] == "ruling"}
    for doc in docs:
        if doc[1] != "ruling":
            doc[4] = doc[0]
            continue
        original = by_ref.get(str(doc[4]), doc)
        doc[4] = first_of.get(original[7], original[0])
    target.executemany("INSERT INTO docs VALUES (?,?,?,?,?,?,?,?)", docs)
    target.executemany("INSERT INTO rule_terms(rowid, body) VALUES (?,?)",
                       ((d[0], d[7]) for d in docs if d[1] != "ruling"))
    target.executemany("INSERT INTO ruling_terms(rowid, body) VALUES (?,?)",
                       ((d[0], d[7]) for d in docs if d[1] == "ruling"))
    target.executemany("INSERT INTO term_df VALUES (?,?)", df.items())
    target.executemany("INSERT INTO meta VALUES (?,?)", (("docs", str(len(docs))),
                                                         ("average_length", str(total / max(1, len(docs))))))
    names: dict[str, str | None] = {}
    for oracle_id, name in catalog.query(
            "SELECT n.oracle_id, n.name FROM names n JOIN cards c ON c.oracle_id = n.oracle_id"
            " WHERE c.kind = 'card'"):
        keys = [name]
        if ", " in name:                # "Nicanzil, Current Conductor" is "Nicanzil" in a question
            keys.append(name.split(", ")[0])
        for i, written in enumerate(keys):
            key = fold(written).replace(" ", "") if has_cjk(written) else fold(written)
            if len(key) < (3 if i == 0 else 4):
                continue
            if names.get(key, oracle_id) != oracle_id:
                names[key] = None      # two cards print this name: not a way to name either
            else:
                names[key] = oracle_id
    target.executemany("INSERT INTO card_names VALUES (?,?,?)",
                       ((k, v, len(k.split())) for k, v in names.items()))
    for table in ("rule_terms", "ruling_terms"):
        target.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")


def index_path(catalog_path: Path | str) -> Path:
    """The index file beside the catalog."""
    return Path(str(catalog_path) + ".ask")


def _current(path: Path, key: str) -> sqlite3.Connection | None:
    """The index file at ``path``, opened, when it was built for the content ``key``."""
    if not path.exists():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        row = db.execute("SELECT value FROM meta WHERE key = 'key'").fetchone()
        if row and row[0] == key:
            return db
        db.close()
    except sqlite3.DatabaseError:
        pass
    return None


def main(argv: list[str] | None = None) -> int:
    """``python -m bot.ask.index [--nice N] CATALOG``: build the index beside the catalog unless it
    is there already, with its CPU priority lowered by N (as ``nice``). A running bot starts it
    after READY and after a refresh, so that its own process (and its event loop) is not slowed by
    the build. Builds of one catalog's index run one at a time (a lock file beside it): the next
    one finds it built."""
    import argparse
    import signal
    import sys
    from bot.catalog import Catalog
    from bot.rules.book import RulesBook
    parser = argparse.ArgumentParser(prog="python -m bot.ask.index")
    parser.add_argument("--nice", type=int, default=0)
    parser.add_argument("catalog", type=Path)
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))   # stopped: its temporary file is removed
    if args.nice:
        try:
            os.nice(args.nice)
        except (AttributeError, OSError):   # no nice here: the build runs at the normal priority
            pass
    catalog_path = args.catalog
    with build_lock(index_path(catalog_path)) as lock:
        if lock is not None and lock.fd is None:
            print(f"another process is still building the /ask index of {catalog_path}{lock.holder()}",
                  file=sys.stderr)
            return 1
        catalog = Catalog(catalog_path)
        try:
            AskIndex.open(catalog, RulesBook.lazy(catalog), locked=True).close()
        finally:
            catalog.close()
            index = index_path(catalog_path)   # stopped at any point: this process's temporary file goes
            for leftover in index.parent.iterdir():
                if leftover.name.startswith(_temporary_prefix(index)) and leftover.name.endswith(".tmp"):
                    leftover.unlink(missing_ok=True)
    return 0


@contextmanager
def build_lock(path: Path):
    """Held while the index at ``path`` is built: builds of one index, by any process (a bot's
    background build, ``wayfinder ask``), run one at a time, and one waits for another's
    BUILD_WAIT seconds at most. Yields the lock (``lock.fd`` None: another process still
    held it then), or None where no lock file can be made (a folder that cannot be written)."""
    from bot.catalog.locks import FileLock, beside
    lock = FileLock(beside(path, ".lock"))
    try:
        held = lock.acquire(wait=BUILD_WAIT, waiting=lambda: log.warning(
            "another process%s is building the /ask index of %s: waiting for it", lock.holder(), path))
    except OSError:
        yield None
        return
    try:
        if held:
            _remove_stale_temporaries(path)
        yield lock
    finally:
        lock.release()


def _remove_stale_temporaries(path: Path) -> None:
    """Remove the temporary files left beside ``path`` by builds whose process is gone (killed
    before it could remove its own)."""
    for leftover in path.parent.glob(f"{glob.escape(path.name)}.*.tmp"):
        pid = leftover.name[len(path.name) + 1:].split(".", 1)[0]
        if pid.isdigit() and not _running(int(pid)):
            leftover.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    if os.name != "posix":   # no way to ask here without harm: it may be running
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:          # another user's process
        return True
    return True


def _temporary_prefix(path: Path) -> str:
    """The start of the name of the temporary file this process builds ``path`` in."""
    return f"{path.name}.{os.getpid()}."


BUILD_WAIT = 3600.0   # seconds a build waits for another process's build of the same index


class AskIndex:
    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self._lock = threading.Lock()
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        self.size = int(meta.get("docs", 0))
        self.average_length = float(meta.get("average_length", 1)) or 1.0

    @classmethod
    def open(cls, catalog, book, path: Path | None = None, *, locked: bool = False) -> "AskIndex":
        """The index for ``catalog``: read from its file when current, else (re)built there under
        its build lock (build_lock; ``locked``: the caller holds it), or the build of another
        process that holds it waited for and read. Should that one still hold it after BUILD_WAIT,
        the index is built in memory."""
        key = catalog_key(catalog)
        path = Path(path) if path else index_path(catalog.path)
        db = _current(path, key)
        if db is not None:
            return cls(db)
        if locked:
            return cls(cls._build_file(catalog, book, path, key))
        with build_lock(path) as lock:
            if lock is not None and lock.fd is None:
                return cls.in_memory(catalog, book)
            db = _current(path, key)   # built meanwhile by the process that held the lock
            return cls(db if db is not None else cls._build_file(catalog, book, path, key))

    @classmethod
    def read(cls, catalog) -> "AskIndex | None":
        """The index in the file beside ``catalog``, when it is current; else None."""
        db = _current(index_path(catalog.path), catalog_key(catalog))
        return cls(db) if db is not None else None

    @classmethod
    def in_memory(cls, catalog, book) -> "AskIndex":
        """The index for ``catalog`` built in memory (nothing is written)."""
        db = sqlite3.connect(":memory:", check_same_thread=False)
        build(catalog, book, db)
        return cls(db)

    @staticmethod
    def _build_file(catalog, book, path: Path, key: str) -> sqlite3.Connection:
        log.info("building the /ask index for %s", catalog.path)
        try:
            fd, tmp = tempfile.mkstemp(prefix=_temporary_prefix(path), suffix=".tmp", dir=path.parent)
            os.close(fd)
        except OSError:
            return AskIndex.in_memory(catalog, book).db
        try:
            db = sqlite3.connect(tmp)
            db.execute("PRAGMA journal_mode = OFF")
            db.execute("PRAGMA synchronous = OFF")
            with db:
                build(catalog, book, db)
                db.execute("INSERT INTO meta VALUES ('key', ?)", (key,))
            db.close()
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)

    def query(self, sql: str, params=()) -> list[tuple]:
        with self._lock:
            return self.db.execute(sql, params).fetchall()

    def document_frequency(self, terms) -> dict[str, int]:
        terms = list(dict.fromkeys(terms))
        if not terms:
            return {}
        marks = ",".join("?" * len(terms))
        return dict(self.query(f"SELECT term, df FROM term_df WHERE term IN ({marks})", tuple(terms)))

    def candidates(self, terms: list[str], limit: int = 150) -> list[int]:
        """The rules and glossary entries, then the rulings, holding any of ``terms``: the best
        ``limit`` of each by BM25."""
        terms = [t.replace('"', "") for t in dict.fromkeys(terms) if t.replace('"', "")]
        if not terms:
            return []
        match = " OR ".join(f'"{t}"' for t in terms)
        out = []
        for table in ("rule_terms", "ruling_terms"):
            out += [rowid for (rowid,) in self.query(
                f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY bm25({table}) LIMIT ?", (match, limit))]
        return out

    def docs(self, ids) -> dict[int, Doc]:
        ids = list(ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return {row[0]: Doc(*row) for row in self.query(
            f"SELECT id, kind, ref, oracle_id, grp, lang, text, body FROM docs WHERE id IN ({marks})", tuple(ids))}

    def doc_ids(self, kind: str, refs: list[str]) -> dict[str, int]:
        if not refs:
            return {}
        marks = ",".join("?" * len(refs))
        return {ref: i for i, ref in self.query(
            f"SELECT id, ref FROM docs WHERE kind = ? AND ref IN ({marks})", (kind, *refs))}

    def groups(self, groups) -> dict[int, list[Doc]]:
        """Rulings and their translations, by group: the same ruling printed for several cards,
        in every language the catalog has it."""
        groups = list(groups)
        if not groups:
            return {}
        marks = ",".join("?" * len(groups))
        out: dict[int, list[Doc]] = {}
        for row in self.query(f"SELECT id, kind, ref, oracle_id, grp, lang, text, body FROM docs"
                              f" WHERE grp IN ({marks}) ORDER BY id", tuple(groups)):
            out.setdefault(row[4], []).append(Doc(*row))
        return out

    def rulings_of(self, oracle_ids: list[str]) -> list[int]:
        if not oracle_ids:
            return []
        marks = ",".join("?" * len(oracle_ids))
        return [i for (i,) in self.query(
            f"SELECT id FROM docs WHERE kind = 'ruling' AND oracle_id IN ({marks})", tuple(oracle_ids))]

    def card_names(self, keys: list[str]) -> dict[str, str | None]:
        if not keys:
            return {}
        out = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            marks = ",".join("?" * len(chunk))
            out.update(self.query(f"SELECT folded, oracle_id FROM card_names WHERE folded IN ({marks})",
                                  tuple(chunk)))
        return out

    def close(self) -> None:
        self.db.close()


if __name__ == "__main__":
    raise SystemExit(main())
