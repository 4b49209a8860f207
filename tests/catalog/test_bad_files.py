"""Files that cannot be used whole: a clear line, counted, none of the file imported, the rest imported."""
import json
import shutil

from bot.catalog import Catalog
from tests.helpers import SEEDS
from tests.test_cli import run

UNKNOWN_CARD = """Zzyzx the Unprinted

10/11/2023

If Zzyzx the Unprinted would explore, it doesn't. This card does not exist.
"""
HEBREW = """Glowcap Lantern

10/11/2023

אם קלף אינו נחשף, ככל הנראה מפני שהספרייה של אותו שחקן ריקה, היצור החוקר מקבל סמן ‎+1/+1.
"""
NO_EDITION = """Magic: The Gathering Comprehensive Rules

These rules are effective as of Smarch 3, 2026.

Introduction
"""


def _state(path):
    catalog = Catalog(path)
    try:
        info = catalog.info()
        documents = catalog.query("SELECT path FROM documents")
    finally:
        catalog.close()
    return ({k: info[k] for k in ("cards", "names", "rulings", "rulings_per_language", "rules_editions")},
            sorted(p for (p,) in documents))


def test_each_bad_file_is_refused_whole_said_and_counted_and_the_others_import(bundled_catalog_path, tmp_path):
    path = tmp_path / "catalog.sqlite3"
    shutil.copy(bundled_catalog_path, path)
    before, documents = _state(path)
    unknown = tmp_path / "zzyzx.txt"
    unknown.write_text(UNKNOWN_CARD)
    hebrew = tmp_path / "glowcap.he.txt"
    hebrew.write_text(HEBREW)
    edition = tmp_path / "MagicCompRules-20260303.txt"
    edition.write_text(NO_EDITION)
    good = tmp_path / "again-queens-agent.pt.txt"
    shutil.copy(SEEDS / "queens-agent.pt.txt", good)
    glowcap = Catalog(path).card_by_english_name("Glowcap Lantern").oracle_id
    rulings = tmp_path / "rulings.json"
    rulings.write_text(json.dumps([
        {"object": "ruling", "oracle_id": "00000000-0000-4000-8000-000000000000", "source": "wotc",
         "published_at": "2024-01-01", "comment": "A ruling for a card nobody printed."},
        {"object": "ruling", "oracle_id": glowcap, "source": "wotc", "published_at": "2024-01-01",
         "comment": "A new ruling for Glowcap Lantern."}]))

    out = run(["data", "import", "--no-progress", str(unknown), str(hebrew), str(edition), str(good), str(rulings)],
              path)
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    lines = out.stdout.splitlines()
    said = {name: [line for line in lines if name in line] for name in (unknown.name, hebrew.name, edition.name)}
    assert said[unknown.name] == [f"ruling document {unknown.name}: skipped, nothing imported — no card in the"
                                  " catalog matches the title 'Zzyzx the Unprinted'"]
    assert said[hebrew.name][0].startswith(f"ruling document {hebrew.name}: skipped, nothing imported — the language"
                                           " of 1 of its 1 rulings cannot be told")
    assert said[edition.name] == [f"comprehensive rules {edition.name}: skipped, nothing imported — an edition of"
                                  " the Comprehensive Rules that cannot be told: “effective as of Smarch 3, 2026”"]
    assert any("1 ruling;" in line and "1 skipped" in line for line in lines if rulings.name in line), lines

    after, documents_after = _state(path)
    # the skipped files left nothing; the good ones imported (Queen's Agent's rulings are the same ones)
    assert after["rulings"] == before["rulings"] + 1
    assert after["rules_editions"] == before["rules_editions"] == ["2026-01-16"]
    assert {k: after[k] for k in ("cards", "names")} == {k: before[k] for k in ("cards", "names")}
    assert set(documents_after) - set(documents) == {str(good), str(rulings)}
    info = json.loads(run(["data", "info", "--json"], path).stdout)
    skipped = {imp["path"]: (imp["counts"], imp["warnings"]) for imp in info["imports"]}
    for bad in (unknown, hebrew, edition):
        assert skipped[str(bad)] == ({"files skipped": 1}, 1)
    assert skipped[str(rulings)][1] == 1   # the ruling for an unknown card, counted


def test_a_rules_file_of_no_known_edition_is_refused_by_rules_diff_too(bundled_catalog_path, tmp_path):
    edition = tmp_path / "MagicCompRules-20260303.txt"
    edition.write_text(NO_EDITION)
    out = run(["rules", "diff", "2026-01-16", str(edition)], bundled_catalog_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "an edition of the Comprehensive Rules that cannot be told" in out.stderr
