"""A ruling is one ruling whatever the number of documents or files it came from."""
import json
import shutil

from bot.catalog import Catalog
from bot.catalog.importer import import_files
from bot.config import Config
from bot.rules.book import RulesBook
from bot.rulings.command import ruling
from bot.services import Services
from tests.helpers import SEEDS

CARDS = ("Queen's Agent", "Defossilize", "Glowcap Lantern", "Nicanzil, Current Conductor", "Tishana's Wayfinder")


def _copy(bundled_catalog_path, tmp_path):
    path = tmp_path / "catalog.sqlite3"
    shutil.copy(bundled_catalog_path, path)
    return path


def _shown(path, tmp_path):
    services = Services(Config.from_env({"WAYFINDER_CATALOG": str(path),
                                         "WAYFINDER_SETTINGS_DB": str(tmp_path / "settings.sqlite3")}))
    try:
        return {(card, lang): ruling(services, card, lang).data["rulings"] for card in CARDS for lang in ("en", "pt", "it")}
    finally:
        services.close()


def _counts(path):
    catalog = Catalog(path)
    try:
        info = catalog.info()
        excerpts = len(RulesBook.from_catalog(catalog).excerpts)
    finally:
        catalog.close()
    return {k: info[k] for k in ("rulings", "rulings_per_language", "ruling_sources", "ruling_statuses")}, excerpts


def test_every_seed_document_imported_twice_under_new_names_changes_no_count(bundled_catalog_path, tmp_path):
    path = _copy(bundled_catalog_path, tmp_path)
    before, excerpts = _counts(path)
    shown_before = _shown(path, tmp_path)
    copies = []
    for round_ in ("copy", "again"):
        folder = tmp_path / round_
        folder.mkdir()
        for seed in sorted(SEEDS.glob("*.txt")):
            copies.append(shutil.copy(seed, folder / f"{round_}-{seed.stem}.txt"))
    reports = import_files(path, copies)
    assert sum(r.counts.get("rulings", 0) for r in reports) == 0
    assert _counts(path) == (before, excerpts)
    assert excerpts == 1
    shown_after = _shown(path, tmp_path)
    assert {k: len(v) for k, v in shown_after.items()} == {k: len(v) for k, v in shown_before.items()}
    assert len(shown_after[("Queen's Agent", "pt")]) == 6
    files = {s["file"] for s in shown_after[("Queen's Agent", "pt")][0]["sources"]}
    assert files == {"queens-agent.pt.txt", "copy-queens-agent.pt.txt", "again-queens-agent.pt.txt"}


def test_a_ruling_in_scryfalls_file_and_in_a_document_is_shown_once_with_both_sources(bundled_catalog_path, tmp_path):
    path = _copy(bundled_catalog_path, tmp_path)
    catalog = Catalog(path)
    card = catalog.card_by_english_name("Glowcap Lantern")
    held = [r for r in catalog.rulings(card.oracle_id) if r.text.startswith("If no card is revealed")][0]
    catalog.close()
    rulings = tmp_path / "rulings.json"
    rulings.write_text(json.dumps([
        # the same ruling, worded with other spacing and quotes, from an earlier date
        {"object": "ruling", "oracle_id": card.oracle_id, "source": "wotc", "published_at": "2023-11-09",
         "comment": held.text.replace(" ", "  ", 1).replace("'", "’")},
        {"object": "ruling", "oracle_id": card.oracle_id, "source": "wotc", "published_at": "2023-11-10",
         "comment": "A ruling only Scryfall's file holds."},
    ]))
    before, _ = _counts(path)
    import_files(path, [rulings])
    after, _ = _counts(path)
    assert after["rulings"] == before["rulings"] + 1
    entries = _shown(path, tmp_path)[("Glowcap Lantern", "en")]
    same = [e for e in entries if e["text"].startswith("If no card is revealed")]
    assert len(same) == 1 and len(entries) == 10
    assert {s["kind"] for s in same[0]["sources"]} == {"scryfall-rulings", "seed"}
    assert same[0]["published_at"] == "2023-11-09"   # the earliest date
    services = Services(Config.from_env({"WAYFINDER_CATALOG": str(path),
                                         "WAYFINDER_SETTINGS_DB": str(tmp_path / "settings.sqlite3")}))
    text = "\n".join(p.as_text() for p in ruling(services, "Glowcap Lantern", "en").pages)
    services.close()
    assert text.count("If no card is revealed") == 1
    assert "Found in: rulings.json, glowcap-lantern.en.txt" in text

    # the document imported again keeps the ruling; Scryfall's file imported again changes nothing
    import_files(path, [SEEDS / "glowcap-lantern.en.txt", rulings])
    assert _counts(path)[0] == after


def _statements(monkeypatch):
    """The SQL statements the importer runs from now on."""
    from bot.catalog import build
    seen = []
    connect = build.connect_for_writing

    def traced(path):
        con = connect(path)
        con.set_trace_callback(seen.append)
        return con

    monkeypatch.setattr(build, "connect_for_writing", traced)
    return seen


def test_a_document_imported_again_reads_its_cards_rulings_once(bundled_catalog_path, tmp_path,
                                                                 monkeypatch):
    path = _copy(bundled_catalog_path, tmp_path)
    again = shutil.copy(SEEDS / "queens-agent.pt.txt", tmp_path / "again-queens-agent.pt.txt")
    catalog = Catalog(path)
    card = catalog.card_by_english_name("Glowcap Lantern").oracle_id
    held = [r.text for r in catalog.rulings(card) if r.lang == "en"]
    catalog.close()
    rulings = tmp_path / "rulings.json"   # Glowcap Lantern's rulings, as Scryfall's file would hold them
    rulings.write_text(json.dumps([{"object": "ruling", "oracle_id": card, "source": "wotc",
                                    "published_at": "2023-11-10", "comment": text} for text in held]))
    statements = _statements(monkeypatch)
    reports = import_files(path, [again, rulings])
    assert sum(r.counts.get("rulings", 0) for r in reports) == 0 and not any(r.warnings for r in reports)
    assert reports[0].counts["duplicates folded"] == len(held)   # Scryfall's file (rulings come first)
    looked_up = [s for s in statements if "FROM ruling_texts WHERE oracle_id" in s]
    assert len(looked_up) == 2, looked_up   # one card in each file: each read once, not once per ruling
    assert not any("SELECT DISTINCT oracle_id, lang FROM ruling_texts" in s for s in statements)


def test_a_file_of_many_cards_reads_which_cards_have_rulings_once(bundled_catalog_path, tmp_path, monkeypatch):
    from bot.catalog.rulings import RulingWriter
    path = _copy(bundled_catalog_path, tmp_path)
    catalog = Catalog(path)
    cards = [oracle_id for (oracle_id,) in catalog.query("SELECT oracle_id FROM cards")]
    with_rulings = {oracle_id for (oracle_id,) in catalog.query("SELECT DISTINCT oracle_id FROM rulings WHERE lang = 'en'")}
    catalog.close()
    monkeypatch.setattr(RulingWriter, "LOOKUPS", 2)
    rulings = tmp_path / "rulings.json"
    rulings.write_text(json.dumps([{"object": "ruling", "oracle_id": card, "source": "wotc",
                                    "published_at": "2023-11-10", "comment": f"A new ruling for card {i}."}
                                   for i, card in enumerate(cards)]))
    statements = _statements(monkeypatch)
    reports = import_files(path, [rulings])
    assert reports[0].counts["rulings"] == len(cards)
    assert len([s for s in statements if "SELECT DISTINCT oracle_id, lang FROM ruling_texts" in s]) == 1
    looked_up = [s for s in statements if "FROM ruling_texts WHERE oracle_id" in s]
    assert len(cards) > len(looked_up) >= len(with_rulings - set(cards[:2]))
