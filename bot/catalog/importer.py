"""Import any mix of data files into the catalog, in the order their contents depend on."""
from __future__ import annotations

import gc
import sqlite3
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Callable, Iterable

from bot.catalog.build import ImportReport, catalog_transaction, import_lock
from bot.catalog.bundled import bundled_files, is_bundled_card_file, needs_bundled
from bot.catalog.comprehensive_rules import import_rules
from bot.catalog.errors import DataImportError, SkippedFile
from bot.catalog.linking import link_translations
from bot.catalog.mtgjson import import_mtgjson
from bot.catalog.names import DocumentCardFinder
from bot.catalog.printed import move_printed
from bot.catalog.rulings import move_rulings
from bot.catalog.scryfall import import_cards, import_rulings, sniff_kind
from bot.catalog.seeds import import_document
from bot.catalog.streams import read_head
from bot.config import IMPORT_WAIT
from bot.i18n import Note
from bot.matching.index import remove_other_indexes, write_index

# cards first (everything else refers to them), then rulings, documents, rules
ORDER = {"cards": 0, "mtgjson": 1, "rulings": 2, "document": 3, "rules": 4}
KIND_NAMES = {"cards": "scryfall-cards", "mtgjson": "mtgjson", "rulings": "scryfall-rulings",
              "document": "ruling document", "rules": "comprehensive rules"}


def classify(path: Path) -> str:
    """cards | rulings | mtgjson | rules | document, from the file's contents."""
    if not path.exists():
        raise DataImportError(str(path), "no such file")
    if path.is_dir():
        raise DataImportError(str(path), "a folder: name the files in it")
    head = read_head(path)
    text = head.decode("utf-8", errors="ignore").lstrip("\ufeff \r\n\t")
    if text.startswith(("[", "{")):
        if '"meta"' in text[:200] or text.lstrip("{ \r\n").startswith('"data"'):
            return "mtgjson"
        return sniff_kind(path)
    if "Comprehensive Rules" in text[:200]:
        return "rules"
    return "document"


def import_files(catalog: Path | str, paths: Iterable[Path | str], *, progress: bool = False,
                 log: Callable[[str], None] | None = None, name_index: bool = True,
                 lock_wait: float = IMPORT_WAIT, bundled_first: bool = False) -> list[ImportReport]:
    """Import ``paths`` into ``catalog`` in one transaction: all of them, or nothing. Imports into
    one catalog run one at a time (another is waited for ``lock_wait`` seconds at most, then
    CatalogBusy); copies a killed import left are removed first. With ``bundled_first``, a catalog
    that is new or written by an older version gets the bundled data first, in the same
    transaction (as ``ensure_catalog`` then the import would, in one pass)."""
    with import_lock(catalog, lock_wait, log):
        first = bundled_files() if bundled_first and needs_bundled(Path(catalog)) else []
        files = [*_in_order(first), *_in_order(paths)]
        if not files:   # e.g. the bundled data, which another process brought in while this one waited
            return []
        return _import_files(catalog, files, progress=progress, log=log, name_index=name_index)


@contextmanager
def collector_paused():
    """Python's garbage collector off for a one-shot import: the import makes no reference cycles
    worth collecting (its peak memory is the same without it), and the collector's passes over the
    records it reads cost about 3% of its time. On again afterwards, failed or not, if it was on.
    Not for the bot's refresh: its other threads keep answering meanwhile, and their cycles would
    wait for the whole import."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _in_order(paths: Iterable[Path | str]) -> list[tuple[str, Path]]:
    """(kind, path) of each file, in the order their contents depend on."""
    return sorted(((classify(Path(p)), Path(p)) for p in paths), key=lambda kp: ORDER[kp[0]])


def _import_files(catalog: Path | str, files: list[tuple[str, Path]], *, progress: bool,
                  log: Callable[[str], None] | None, name_index: bool) -> list[ImportReport]:
    reports: list[ImportReport] = []
    with catalog_transaction(catalog) as con:
        index: DocumentCardFinder | None = None
        for kind, path in files:
            try:
                if kind == "document":
                    index = index or DocumentCardFinder(con)
                    report = import_document(con, path, index)
                else:
                    report = _import_stream(con, kind, path, progress)
                    index = None
            except SkippedFile as exc:   # raised before anything of the file was written
                report = ImportReport.skipped_file(str(path), KIND_NAMES[kind], exc.message)
            report.record(con)
            reports.append(report)
            if log:
                log(report.summary())
        adopted = adopt_published_ids(con)
        if log and adopted:
            log(Note("{count} bundled card now under its published Oracle id",
                     "{count} bundled cards now under their published Oracle ids", count=adopted))
        linked = link_translations(con)
        if log and linked:
            log(Note("{count} translated ruling linked to its English original",
                     "{count} translated rulings linked to their English originals", count=linked))
        digest = write_index(con, Path(catalog)) if name_index else None
    if digest:
        remove_other_indexes(Path(catalog), digest)
    return reports


def adopt_published_ids(con: sqlite3.Connection) -> int:
    """Cards shipped in data/ before their real data was imported carry made-up Oracle ids (UUID
    version 5, from their names). Once a file brings the same card under its published id (Scryfall's
    are version 4), its names and rulings move there and the made-up card goes."""
    pairs = con.execute(
        "SELECT made.oracle_id, real.oracle_id FROM cards made JOIN cards real ON real.name = made.name"
        " AND real.oracle_id != made.oracle_id AND real.kind = made.kind"
        " WHERE substr(made.oracle_id, 15, 1) = '5' AND substr(real.oracle_id, 15, 1) != '5'").fetchall()
    for made, real in pairs:
        con.execute("INSERT OR IGNORE INTO names(oracle_id, lang, name, face, folded, prints)"
                    " SELECT ?, lang, name, face, folded, prints FROM names WHERE oracle_id = ?", (real, made))
        move_rulings(con, made, real)
        move_printed(con, made, real)
        con.execute("DELETE FROM names WHERE oracle_id = ?", (made,))
        con.execute("DELETE FROM cards WHERE oracle_id = ?", (made,))
    return len(pairs)


def _import_stream(con: sqlite3.Connection, kind: str, path: Path, progress: bool) -> ImportReport:
    if kind == "rules":
        return import_rules(con, path)
    if kind == "mtgjson":
        return import_mtgjson(con, path)
    if kind == "cards":
        import_stream = partial(import_cards, keep_counts=is_bundled_card_file(path))
    else:
        import_stream = import_rulings
    if not progress:   # tqdm is not even imported
        return import_stream(con, path)
    from tqdm import tqdm
    bar = tqdm(desc=f"{path.name}", unit=" records", leave=False)
    last = 0

    def advance(number: int) -> None:
        nonlocal last
        bar.update(number - last)
        last = number

    try:
        return import_stream(con, path, advance)
    finally:
        bar.close()
