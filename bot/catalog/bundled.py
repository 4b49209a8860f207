"""The catalog the bot ships: hand-written card facts and the seed ruling documents in data/."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from bot.config import DATA_DIR, IMPORT_WAIT
from bot.catalog.store import SCHEMA_VERSION

if TYPE_CHECKING:
    from bot.catalog.build import ImportReport


def bundled_files(data_dir: Path = DATA_DIR) -> list[Path]:
    """Card facts, the seed ruling documents and the current Comprehensive Rules (gzip)."""
    return (sorted((data_dir / "cards").glob("*.jsonl")) + sorted((data_dir / "seeds").glob("*.txt"))
            + sorted((data_dir / "rules").glob("MagicCompRules-*.txt.gz")))


def is_bundled_card_file(path: Path, data_dir: Path = DATA_DIR) -> bool:
    """Whether ``path`` is one of the card files the bot ships (they add names, never recount them)."""
    return path.suffix == ".jsonl" and path.resolve().parent == (data_dir / "cards").resolve()


def build_bundled(catalog: Path, log: Callable[[str], None] | None = None,
                  lock_wait: float = IMPORT_WAIT) -> list[ImportReport]:
    """Import the bundled data into ``catalog`` (created if missing, refreshed otherwise)."""
    from bot.catalog.importer import import_files  # only when building: start-up need not load it
    return import_files(catalog, bundled_files(), log=log, lock_wait=lock_wait)


def ensure_catalog(catalog: Path, log: Callable[[str], None] | None = None,
                   lock_wait: float = IMPORT_WAIT) -> Path:
    """Build the bundled catalog on first start; bring a catalog written by an older version up
    to date (its data stays, the bundled data is imported again). Another import into the
    catalog is waited for ``lock_wait`` seconds at most (WAYFINDER_IMPORT_WAIT)."""
    if needs_bundled(catalog):   # asked again holding the import lock: two processes starting build it once
        from bot.catalog.importer import import_files
        import_files(catalog, [], log=log, lock_wait=lock_wait, bundled_first=True)
    return catalog


def needs_bundled(catalog: Path) -> bool:
    """Whether the bundled data must be imported (again): the catalog is new, or written by an
    older version."""
    return not catalog.exists() or outdated(catalog)


def outdated(catalog: Path) -> bool:
    try:
        con = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True)
        try:
            return con.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION
        finally:
            con.close()
    except sqlite3.Error:
        return False   # not a catalog: opening it says so
