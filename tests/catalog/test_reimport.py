"""Importing the same file again leaves the catalog as it was: each card file counts the printings
of a name afresh (a sync or a refresh imports the same kind of file again and again), and a catalog
written before names were counted this way is upgraded in place, its data kept."""
import gzip
import itertools
import json
import sqlite3
import uuid

import ijson
import pytest

from bot.catalog import Catalog
from bot.catalog.bundled import build_bundled, ensure_catalog
from bot.catalog.importer import import_files
from bot.catalog.store import SCHEMA_VERSION
from bot.config import DATA_DIR
from tests.helpers import SHARED_DATA, needs_shared

ORACLE_ID = str(uuid.UUID(int=0x0F0F_0000_0000_4000_8000_0000_0000_0001))
LOG = "imports"   # the log of what was imported, which says when: it grows by design


def printing(lang: str, printed_name: str | None, number: int) -> dict:
    return {"object": "card", "id": str(uuid.UUID(int=number)), "oracle_id": ORACLE_ID, "lang": lang,
            "name": "Zebrafish Lookout", "printed_name": printed_name, "layout": "normal",
            "type_line": "Creature — Fish Scout", "oracle_text": "When Zebrafish Lookout enters, it explores.",
            "mana_cost": "{1}{U}", "set": f"s{number}", "collector_number": str(number)}


@pytest.fixture
def cards_file(tmp_path):
    """Three English printings and two French ones of one card (one French with another spelling)."""
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([printing("en", None, 1), printing("en", None, 2), printing("en", None, 3),
                                printing("fr", "Vigie du poisson-zèbre", 4), printing("fr", "Vigie du poisson-zèbre", 5),
                                printing("fr", "Vigie du poisson zèbre", 6)]), encoding="utf-8")
    return path


def tables(path) -> dict[str, list]:
    """Every table's rows, in order, but the import log (and SQLite's own statistics)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"
                                               " AND name NOT LIKE 'sqlite%'")]
        return {name: sorted(con.execute(f"SELECT * FROM {name}"), key=repr) for name in names if name != LOG}
    finally:
        con.close()


def prints(path) -> dict[tuple[str, str], int]:
    catalog = Catalog(path)
    try:
        return {(lang, name): count for lang, name, count in catalog.query(
            "SELECT lang, name, prints FROM names WHERE oracle_id = ?", (ORACLE_ID,))}
    finally:
        catalog.close()


COUNTED = {("en", "Zebrafish Lookout"): 3, ("fr", "Vigie du poisson-zèbre"): 2, ("fr", "Vigie du poisson zèbre"): 1}


def test_the_same_card_file_imported_again_leaves_the_catalog_as_it_was(tmp_path, cards_file):
    catalog = tmp_path / "catalog.sqlite3"
    ensure_catalog(catalog)
    import_files(catalog, [cards_file])
    once = tables(catalog)
    assert prints(catalog) == COUNTED
    import_files(catalog, [cards_file])
    assert tables(catalog) == once
    again = tmp_path / "cards-again.json"
    again.write_bytes(cards_file.read_bytes())
    import_files(catalog, [cards_file, again])   # two copies at once: the last one's count
    assert prints(catalog) == COUNTED


def all_cards_slice(path, count: int = 20_000) -> None:
    """The first ``count`` objects of the real all_cards file, as a file of their own."""
    with gzip.open(SHARED_DATA / "scryfall" / "all-cards-derived-2022.json.gz") as stream:
        path.write_text(json.dumps(list(itertools.islice(ijson.items(stream, "item", use_float=True), count))),
                        encoding="utf-8")


@needs_shared
@pytest.mark.parametrize("name", ["all_cards", "mtgjson/XLN.json"])
def test_a_real_file_imported_again_leaves_the_catalog_as_it_was(tmp_path, name):
    catalog = tmp_path / "catalog.sqlite3"
    if name == "all_cards":
        all_cards_slice(tmp_path / "all-cards.json")
    path = tmp_path / "all-cards.json" if name == "all_cards" else SHARED_DATA / name
    import_files(catalog, [path], bundled_first=True)
    once = tables(catalog)
    import_files(catalog, [path])
    assert tables(catalog) == once


def test_a_catalog_of_the_version_before_is_upgraded_and_counts_afresh_at_the_next_card_import(
        tmp_path, cards_file):
    """Written before names were counted per file: its names counted twice (imported twice), no
    column to count in. At start it is upgraded with its data; the next card file counts anew."""
    catalog = tmp_path / "catalog.sqlite3"
    import_files(catalog, [cards_file], bundled_first=True)
    with sqlite3.connect(catalog) as con:
        con.execute("ALTER TABLE names DROP COLUMN counting")
        con.execute("UPDATE names SET prints = prints * 2")
        con.execute("PRAGMA user_version = 4")
    con.close()
    ensure_catalog(catalog)
    with sqlite3.connect(f"file:{catalog}?mode=ro", uri=True) as con:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    con.close()
    assert prints(catalog) == {key: 2 * count for key, count in COUNTED.items()}   # kept as they were
    import_files(catalog, [cards_file])
    assert prints(catalog) == COUNTED
    once = tables(catalog)
    import_files(catalog, [cards_file])
    assert tables(catalog) == once


PLAINS = json.loads(next(line for line in (DATA_DIR / "cards" / "explore-cards.jsonl").read_text(encoding="utf-8")
                         .splitlines() if '"name": "Plains", "lang": "en"' in line))


def plains_counts(path) -> dict[tuple[str, str], int]:
    catalog = Catalog(path)
    try:
        return {(lang, name): count for lang, name, count in catalog.query(
            "SELECT lang, name, prints FROM names WHERE oracle_id = ?", (PLAINS["oracle_id"],))}
    finally:
        catalog.close()


@pytest.fixture
def full_catalog(tmp_path):
    """The bundled catalog, then a card file holding the English Plains 40 times."""
    catalog = tmp_path / "catalog.sqlite3"
    ensure_catalog(catalog)
    assert plains_counts(catalog)[("en", "Plains")] == 1   # a first build counts the bundled file's printings
    plains = tmp_path / "plains.json"
    plains.write_text(json.dumps([PLAINS] * 40), encoding="utf-8")
    import_files(catalog, [plains])
    assert plains_counts(catalog)[("en", "Plains")] == 40
    return catalog


def test_upgrading_an_older_catalog_keeps_the_printing_counts_of_the_bundled_names(full_catalog):
    before = plains_counts(full_catalog)
    with sqlite3.connect(full_catalog) as con:
        con.execute("PRAGMA user_version = 4")
    con.close()
    ensure_catalog(full_catalog)   # imports the bundled data again
    assert plains_counts(full_catalog) == before
    assert before[("en", "Plains")] == 40


def test_rebuilding_the_bundled_data_keeps_the_printing_counts_and_the_names_as_they_were(full_catalog):
    before = plains_counts(full_catalog)
    names = tables(full_catalog)["names"]
    build_bundled(full_catalog)   # wayfinder data bundled
    assert plains_counts(full_catalog) == before
    assert tables(full_catalog)["names"] == names
