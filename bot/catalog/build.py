"""Writing the catalog: every import runs in a copy that replaces the catalog only on success."""
from __future__ import annotations

import glob
import json
import os
import sqlite3
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Callable, Iterator

from bot.catalog.errors import CatalogBusy
from bot.catalog.locks import FileLock, beside
from bot.catalog import report_text
from bot.catalog.rulings import forget_document, upgrade
from bot.catalog.store import SCHEMA_VERSION
from bot.i18n import Note, messages




def schema_sql() -> str:
    return resources.files(__package__).joinpath("schema.sql").read_text(encoding="utf-8")


def connect_for_writing(path: Path) -> sqlite3.Connection:
    con = sqlite3.connect(path)
    con.execute("PRAGMA foreign_keys = ON")
    con.execute("PRAGMA journal_mode = OFF")  # a scratch copy: durability comes from the rename
    con.execute("PRAGMA synchronous = OFF")
    con.execute("PRAGMA cache_size = -65536")   # 64 MB of pages: bulk inserts into the indexes stay in memory
    con.execute("PRAGMA temp_store = FILE")
    version = con.execute("PRAGMA user_version").fetchone()[0]
    con.executescript(schema_sql())
    if version < SCHEMA_VERSION:
        upgrade_names(con)
        upgrade(con)
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    return con


def upgrade_names(con: sqlite3.Connection) -> None:
    """Catalogs written before version 5: the column each card file's printings are counted in. The
    counts they hold stay until a card file brings the names again (a sync, a refresh) and counts them
    anew."""
    if "counting" not in {row[1] for row in con.execute("PRAGMA table_info(names)")}:
        con.execute("ALTER TABLE names ADD COLUMN counting INTEGER")


@contextmanager
def foreign_keys_off(con: sqlite3.Connection) -> Iterator[None]:
    """For a bulk write whose every row refers to rows written before it: foreign keys are not looked
    up row by row. The setting only changes between transactions, so the transaction is committed
    before and after (the copy being built has no journal to roll back: this loses nothing)."""
    con.commit()
    con.execute("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        con.commit()
        con.execute("PRAGMA foreign_keys = ON")


@contextmanager
def import_lock(catalog_path: Path | str, wait: float, log: Callable[[str], None] | None = None) -> Iterator[None]:
    """One import at a time per catalog (a lock file beside it, released by the system when the
    process ends, however it ends); another import is waited for ``wait`` seconds at most, then
    CatalogBusy. Holding it, any copy an earlier import left is stale: it was killed before it
    could remove its copy. Those are removed first."""
    catalog_path = Path(catalog_path)
    lock = FileLock(beside(catalog_path, ".lock"))
    if not lock.acquire(wait, log and (lambda: log(Note("waiting for another import{holder} into {catalog} to finish",
                                                        holder=lock.holder(), catalog=catalog_path)))):
        raise CatalogBusy(catalog_path, lock.holder(), wait)
    try:
        removed = remove_stale_copies(catalog_path)
        if log and removed:
            log(Note("removed what an import that did not finish left: {files}",
                     files=", ".join(p.name for p in removed)))
        yield
    finally:
        lock.release()


def remove_stale_copies(catalog_path: Path) -> list[Path]:
    """The temporary copies (and SQLite journals) beside ``catalog_path``; call with the lock held."""
    pattern = glob.escape(catalog_path.name) + ".*.tmp"
    stale = sorted(catalog_path.parent.glob(pattern)) + sorted(catalog_path.parent.glob(pattern + "-journal"))
    for path in stale:
        path.unlink(missing_ok=True)
    return stale


def _readable_mode(catalog_path: Path) -> int:
    """The catalog's permissions: as before, or readable by all (less the umask) when new."""
    if catalog_path.exists():
        return catalog_path.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


ANALYSIS_LIMIT = 400   # rows of each index read for the query planner's statistics


@contextmanager
def catalog_transaction(catalog_path: Path | str) -> Iterator[sqlite3.Connection]:
    """Yield a writable copy of the catalog; it replaces the real file only if no error escapes.
    Run it holding import_lock."""
    catalog_path = Path(catalog_path)
    catalog_path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=catalog_path.name + ".", suffix=".tmp",
                                    dir=catalog_path.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        if catalog_path.exists():
            source = sqlite3.connect(f"file:{catalog_path}?mode=ro", uri=True)
            target = sqlite3.connect(tmp)
            source.backup(target, pages=4096)  # in steps: memory does not grow with the catalog
            source.close()
            target.close()
        con = connect_for_writing(tmp)
        try:
            yield con
            # statistics from a sample of each index: the plans of the catalog's queries are those
            # of full statistics, for a fraction of the time (about 0.1 s of CPU for all cards)
            con.execute(f"PRAGMA analysis_limit={ANALYSIS_LIMIT}")
            con.execute("PRAGMA optimize")
            con.commit()
        finally:
            con.close()
        os.chmod(tmp, _readable_mode(catalog_path))   # mkstemp made it private to its owner
        os.replace(tmp, catalog_path)
    finally:
        tmp.unlink(missing_ok=True)


@dataclass
class ImportReport:
    """What one file brought in: counts per kind and skipped records. A report counts only what
    the summaries can say in every language (report_text.COUNTS): another count is refused."""

    path: str
    kind: str
    counts: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)   # notes (bot.i18n.Note): said in the reader's language

    def __post_init__(self) -> None:
        for what in self.counts:
            _countable(what)

    def add(self, what: str, n: int = 1) -> None:
        self.counts[_countable(what)] = self.counts.get(what, 0) + n

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    @classmethod
    def skipped_file(cls, path: str, kind: str, reason: str) -> "ImportReport":
        """The report of a file none of which was imported."""
        report = cls(path, kind, {"files skipped": 1})
        report.warn(reason)
        report.skipped = reason
        return report

    def record(self, con: sqlite3.Connection) -> None:
        con.execute(
            "INSERT INTO imports(path, kind, imported_at, counts, warnings) VALUES (?,?,?,?,?)",
            (self.path, self.kind, datetime.now(timezone.utc).isoformat(timespec="seconds"),
             json.dumps(self.counts, sort_keys=True), len(self.warnings)),
        )

    skipped: str | None = None   # why none of the file was imported

    def summary(self) -> str:
        """In English; the command line writes it in the operator's language (catalog.report_text)."""
        return Summary(self, report_text.summary_text(self, messages("en")))


class Summary(str):
    """A report's summary line: the report is kept to write it in another language."""

    def __new__(cls, report: ImportReport, text: str):
        line = super().__new__(cls, text)
        line.report = report
        return line

    def localized(self, msg) -> str:
        return report_text.summary_text(self.report, msg)


def _countable(what: str) -> str:
    if what not in report_text.COUNTS:
        raise ValueError(f"{what!r} is not a count an import report can give (bot.catalog.report_text.COUNTS)")
    return what


def document_id(con: sqlite3.Connection, key: str, kind: str, path: str,
                title: str | None = None, notice: str | None = None) -> int:
    """The id of a source document, created or refreshed; its old rulings are removed."""
    row = con.execute("SELECT id FROM documents WHERE key = ?", (key,)).fetchone()
    if row:
        forget_document(con, row[0])
        con.execute("UPDATE documents SET path=?, title=?, notice=? WHERE id=?",
                    (path, title, notice, row[0]))
        return row[0]
    cur = con.execute("INSERT INTO documents(key, kind, path, title, notice) VALUES (?,?,?,?,?)",
                      (key, kind, path, title, notice))
    return cur.lastrowid
