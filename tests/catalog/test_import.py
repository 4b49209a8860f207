"""Importing the real Scryfall, MTGJSON and Comprehensive Rules files, and bad files."""
import gzip
import json
import sqlite3
from pathlib import Path

import ijson
import pytest

from bot.catalog import Catalog, DataImportError
from bot.catalog.importer import import_files
from tests.helpers import SHARED_DATA, needs_shared

ALL_CARDS = SHARED_DATA / "scryfall" / "all-cards-derived-2022.json.gz"
RULINGS = SHARED_DATA / "scryfall" / "rulings-derived-2022.json.gz"


def _expected_names():
    """Every (card, language, printed name) in the file, faces included."""
    names = set()
    with gzip.open(ALL_CARDS) as fh:
        for obj in ijson.items(fh, "item"):
            field = "name" if obj["lang"] == "en" else "printed_name"
            if obj.get(field):
                names.add((obj["oracle_id"], obj["lang"], obj[field]))
            for face in obj.get("card_faces") or []:
                if face.get(field):
                    names.add((obj["oracle_id"], obj["lang"], face[field]))
    return names


@needs_shared
def test_full_import_has_every_card_printed_name_and_ruling(full_catalog):
    con = full_catalog.con
    oracle_ids = {r[0] for r in con.execute("SELECT oracle_id FROM cards")}
    stored = set(con.execute("SELECT oracle_id, lang, name FROM names"))
    expected = _expected_names()
    assert len({o for o, _, _ in expected}) == 23_738
    assert expected <= stored
    assert len(oracle_ids) == 23_738 + len({o for o, _, _ in stored} - {o for o, _, _ in expected})
    scryfall = con.execute("SELECT count(*) FROM rulings r JOIN documents d ON d.id = r.document_id"
                           " WHERE d.kind = 'scryfall-rulings'").fetchone()[0]
    seeds = con.execute("SELECT count(*) FROM rulings r JOIN documents d ON d.id = r.document_id"
                        " WHERE d.kind = 'seed'").fetchone()[0]
    # 45,047 in the file; three were republished later with the same text (Radha's mana ruling,
    # the monarch's on two cards): each is one ruling, with its earliest date
    assert scryfall == 45_047 - 3
    assert seeds == 9 + 6 + 6 + 9 + 3


@needs_shared
def test_spelling_variants_are_all_kept(full_catalog):
    # about 1,100 (card, language) pairs carry two spellings in the real data
    pairs = full_catalog.query("SELECT count(*) FROM (SELECT oracle_id, lang FROM names WHERE face = -1"
                               " GROUP BY oracle_id, lang HAVING count(*) > 1)")[0][0]
    assert pairs > 1000


@needs_shared
def test_portuguese_rulings_link_to_queens_agents_english_rulings_after_a_full_import(full_catalog):
    card = full_catalog.card_by_english_name("Queen's Agent")
    rulings = full_catalog.rulings(card.oracle_id)
    english = {r.id: r.text for r in rulings if r.lang == "en"}
    portuguese = [r for r in rulings if r.lang == "pt"]
    def original_of(start):
        ruling = next(r for r in portuguese if r.text.startswith(start))
        return english[ruling.original_id]

    assert original_of("Depois que uma habilidade").startswith("Once an ability")
    assert original_of("Se nenhum card for revelado").startswith("If no card is revealed")
    assert original_of("Se uma mágica ou habilidade").startswith("If a resolving spell")


def _write_cards(path, objects, gz=True, lines=False):
    text = "\n".join(json.dumps(o) for o in objects) if lines else json.dumps(objects)
    data = text.encode()
    path.write_bytes(gzip.compress(data) if gz else data)
    return path


CARD = {"object": "card", "oracle_id": "00000000-0000-0000-0000-000000000001", "name": "Test Explorer",
        "lang": "en", "layout": "normal", "type_line": "Creature — Merfolk Scout", "oracle_text": "", "mana_cost": "{G}"}


def test_reimporting_replaces_and_never_duplicates(tmp_path):
    cards = _write_cards(tmp_path / "cards.json.gz",
                         [CARD, dict(CARD, lang="fr", printed_name="Explorateur d'essai")])
    rulings = tmp_path / "rulings.json"
    rulings.write_text(json.dumps([{"object": "ruling", "oracle_id": CARD["oracle_id"], "source": "wotc",
                                    "published_at": "2020-01-01", "comment": "A ruling."}]))
    catalog = tmp_path / "catalog.sqlite3"
    for _ in range(2):
        import_files(catalog, [cards, rulings])
    c = Catalog(catalog)
    assert c.query("SELECT count(*) FROM cards")[0][0] == 1
    assert c.query("SELECT count(*) FROM names")[0][0] == 2
    assert c.query("SELECT count(*) FROM rulings")[0][0] == 1
    assert c.rulings(CARD["oracle_id"])[0].source == "wotc"


def test_json_lines_and_plain_json_are_read(tmp_path):
    lines = _write_cards(tmp_path / "cards.jsonl", [CARD], gz=False, lines=True)
    catalog = tmp_path / "catalog.sqlite3"
    import_files(catalog, [lines])
    assert Catalog(catalog).card(CARD["oracle_id"]).name == "Test Explorer"


def test_a_truncated_file_names_file_and_position_and_leaves_the_catalog_untouched(tmp_path):
    good = _write_cards(tmp_path / "good.json.gz", [CARD])
    catalog = tmp_path / "catalog.sqlite3"
    import_files(catalog, [good])
    before = catalog.read_bytes()
    many = [dict(CARD, oracle_id=f"00000000-0000-0000-0000-{i:012d}", name=f"Card {i}") for i in range(2000)]
    data = gzip.compress(json.dumps(many).encode())
    bad = tmp_path / "truncated.json.gz"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(DataImportError) as info:
        import_files(catalog, [bad])
    assert "truncated.json.gz" in str(info.value)
    assert "near byte" in str(info.value)
    assert catalog.read_bytes() == before
    assert not list(tmp_path.glob("*.tmp"))


def test_a_file_that_is_not_card_data_is_refused(tmp_path):
    bad = tmp_path / "notes.json"
    bad.write_text(json.dumps([{"hello": "world"}]))
    with pytest.raises(DataImportError) as info:
        import_files(tmp_path / "catalog.sqlite3", [bad])
    assert "notes.json" in str(info.value)
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\x00\x01binary")
    with pytest.raises(DataImportError):
        import_files(tmp_path / "catalog.sqlite3", [garbage])


def test_a_ruling_for_an_unknown_card_is_a_counted_warning(tmp_path):
    cards = _write_cards(tmp_path / "cards.json.gz", [CARD])
    rulings = tmp_path / "rulings.json"
    rulings.write_text(json.dumps([
        {"object": "ruling", "oracle_id": CARD["oracle_id"], "source": "wotc", "published_at": "2020-01-01", "comment": "Kept."},
        {"object": "ruling", "oracle_id": "ffffffff-0000-0000-0000-000000000000", "source": "wotc",
         "published_at": "2020-01-01", "comment": "Skipped."}]))
    reports = import_files(tmp_path / "catalog.sqlite3", [cards, rulings])
    assert reports[-1].counts["rulings"] == 1
    assert len(reports[-1].warnings) == 1 and "unknown card" in reports[-1].warnings[0]
    info = Catalog(tmp_path / "catalog.sqlite3").info()
    assert info["imports"][-1]["warnings"] == 1


@needs_shared
def test_mtgjson_set_files_bring_foreign_names_and_rulings(tmp_path):
    catalog = tmp_path / "catalog.sqlite3"
    import_files(catalog, [SHARED_DATA / "mtgjson" / "XLN.json", SHARED_DATA / "mtgjson" / "ZNR.json"])
    c = Catalog(catalog)
    card = c.card_by_english_name("Tishana's Wayfinder")
    names = c.names(card.oracle_id)
    assert names["fr"] == ["Guidevoie de Tishana"] and names["pt"] == ["Trilheira de Tishana"]
    assert any(r.text.startswith("Once an ability") for r in c.rulings(card.oracle_id))
    mdfc = c.query("SELECT oracle_id FROM names WHERE name = 'Kazandu Valley'")
    assert mdfc, "the back face of a modal double-faced card is a name too"


def test_a_corrupt_catalog_is_refused_with_its_name(tmp_path):
    bad = tmp_path / "catalog.sqlite3"
    bad.write_bytes(b"not a database at all" * 100)
    with pytest.raises(DataImportError) as info:
        Catalog(bad)
    assert "catalog.sqlite3" in str(info.value)


def test_the_catalog_is_opened_read_only(bundled_catalog):
    with pytest.raises(sqlite3.OperationalError):
        bundled_catalog.con.execute("DELETE FROM cards")


@needs_shared
def test_mtgjson_allprintings_is_read_one_set_at_a_time(tmp_path):
    xln = json.loads((SHARED_DATA / "mtgjson" / "XLN.json").read_text(encoding="utf-8"))
    rix = json.loads((SHARED_DATA / "mtgjson" / "RIX.json").read_text(encoding="utf-8"))
    allprintings = tmp_path / "AllPrintings.json.gz"
    allprintings.write_bytes(gzip.compress(json.dumps(
        {"meta": xln["meta"], "data": {"XLN": xln["data"], "RIX": rix["data"]}}).encode()))
    catalog = tmp_path / "catalog.sqlite3"
    reports = import_files(catalog, [allprintings])
    assert reports[0].kind == "mtgjson"
    c = Catalog(catalog)
    assert c.names(c.card_by_english_name("Queen's Agent").oracle_id)["pt"] == ["Agente da Rainha"]
    assert c.card_by_english_name("Path of Discovery") is not None   # from the second set


def test_bundled_cards_move_to_their_published_oracle_id_when_real_data_arrives(tmp_path):
    from bot.catalog.bundled import bundled_files
    catalog = tmp_path / "catalog.sqlite3"
    import_files(catalog, bundled_files())
    before = Catalog(catalog)
    made_up = before.card_by_english_name("Defossilize").oracle_id
    before.close()
    real_id = "11111111-2222-4333-8444-555555555555"
    published = _write_cards(tmp_path / "lci.json.gz", [
        {"object": "card", "oracle_id": real_id, "name": "Defossilize", "lang": "en", "layout": "normal",
         "type_line": "Sorcery", "oracle_text": "Return target creature card…", "mana_cost": "{4}{B}"},
        {"object": "card", "oracle_id": real_id, "name": "Defossilize", "lang": "de", "layout": "normal",
         "printed_name": "Entfossilisieren", "type_line": "Sorcery", "oracle_text": "", "mana_cost": "{4}{B}"}])
    import_files(catalog, [published])
    c = Catalog(catalog)
    assert c.query("SELECT count(*) FROM cards WHERE name = 'Defossilize'")[0][0] == 1
    assert c.card(made_up) is None
    names = c.names(real_id)
    assert names["it"] == ["Defossilizzare"] and names["de"] == ["Entfossilisieren"]
    assert len([r for r in c.rulings(real_id) if r.lang == "it"]) == 6


def test_a_first_import_brings_the_bundled_data_in_the_same_pass(tmp_path):
    from bot.catalog.bundled import bundled_files
    from tests.test_cli import run
    catalog = tmp_path / "catalog.sqlite3"
    cards = _write_cards(tmp_path / "cards.json.gz",
                         [CARD, dict(CARD, lang="fr", printed_name="Explorateur d'essai")])
    out = run(["data", "import", "--no-progress", str(cards)], catalog)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    lines = out.stdout.splitlines()
    bundled = [path.name for path in bundled_files()]
    # the bundled files are said first, as they are imported first; then the user's file
    said = [next(i for i, line in enumerate(lines) if name in line) for name in [*bundled, cards.name]]
    assert said == sorted(said) and said[-1] > max(said[:-1])
    assert len([p for p in tmp_path.iterdir() if p.name.startswith("catalog.sqlite3.names")]) == 1
    c = Catalog(catalog)
    assert [Path(p).name for (p,) in c.query("SELECT path FROM imports ORDER BY rowid")][-1] == cards.name
    assert c.names(c.card_by_english_name("Queen's Agent").oracle_id)["pt"] == ["Agente da Rainha"]
    assert c.names(CARD["oracle_id"])["fr"] == ["Explorateur d'essai"]
    c.close()
    for typed in ("agente da rainha", "explorateur dessai"):
        assert run(["resolve", typed], catalog).returncode == 0, typed
    # the catalog is there now: the next import brings only its own file
    again = run(["data", "import", "--no-progress", str(cards)], catalog)
    assert again.returncode == 0 and not any(name in again.stdout for name in bundled), again.stdout


def test_a_first_import_that_fails_leaves_no_catalog(tmp_path):
    from tests.test_cli import run
    catalog = tmp_path / "catalog.sqlite3"
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(gzip.compress(json.dumps([CARD] * 200).encode())[:200])
    out = run(["data", "import", "--no-progress", str(cut)], catalog)
    assert out.returncode != 0 and "Traceback" not in out.stderr and "error:" in out.stderr, out.stderr
    assert not catalog.exists()


def test_a_start_that_found_the_bundled_data_missing_does_not_import_it_again_once_another_has(tmp_path,
                                                                                              monkeypatch):
    """Two processes starting on a new catalog (the bot and a command, two shards) both find it
    missing; the second waits for the first's import and, asking again with the lock held, finds the
    bundled data there: the catalog is not imported and rewritten a second time."""
    import bot.catalog.bundled as bundled
    catalog = tmp_path / "catalog.sqlite3"
    bundled.build_bundled(catalog)
    written = catalog.stat().st_mtime_ns, catalog.stat().st_ino
    monkeypatch.setattr(bundled, "needs_bundled", lambda path: True)   # what it saw before the other finished
    bundled.ensure_catalog(catalog)
    assert (catalog.stat().st_mtime_ns, catalog.stat().st_ino) == written
    con = sqlite3.connect(catalog)
    try:
        assert con.execute("SELECT count(*) FROM imports").fetchone()[0] == len(
            bundled.bundled_files())
    finally:
        con.close()


def test_an_import_with_progress_shows_how_many_records_were_read(tmp_path, capsys):
    many = [dict(CARD, oracle_id=f"00000000-0000-0000-0000-{i:012d}", name=f"Card {i}") for i in range(6000)]
    cards = _write_cards(tmp_path / "cards.json.gz", many)
    catalog = tmp_path / "catalog.sqlite3"
    import_files(catalog, [cards], progress=True, name_index=False)
    shown = capsys.readouterr().err
    assert "cards.json.gz: " in shown and " records" in shown   # the bar, cleared at the end
    assert Catalog(catalog).query("SELECT count(*) FROM cards")[0][0] == 6000
