"""The wayfinder command line, run as a user runs it."""
import json
import os
import subprocess
import sys

from tests.helpers import PROJECT


def run(args, catalog, stdin=None):
    env = dict(os.environ, WAYFINDER_CATALOG=str(catalog), WAYFINDER_LOG_LEVEL="WARNING")
    env.pop("DISCORD_TOKEN", None)
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, capture_output=True,
                          text=True, cwd=PROJECT, env=env, timeout=120)


def test_card_json_gives_queens_agent_with_portuguese_rulings(bundled_catalog_path):
    out = run(["card", "agente da rainha", "--json"], bundled_catalog_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["name"] == "Queen's Agent"
    assert data["matched"] == {"name": "Agente da Rainha", "lang": "pt", "score": data["matched"]["score"]}
    assert len(data["rulings"]) == 6 and {r["lang"] for r in data["rulings"]} == {"pt"}
    folded = [r for r in data["rulings"] if r["wordings"]]
    assert len(folded) == 1 and len(folded[0]["wordings"]) == 1
    assert "Agente da Rainha" in data["names"]["pt"]


def test_card_and_ruling_json_give_a_ruling_in_one_shape(bundled_catalog_path):
    card = json.loads(run(["card", "defossilizzare", "--json"], bundled_catalog_path).stdout)
    ruling = json.loads(run(["ruling", "defossilizzare", "--lang", "it", "--json"], bundled_catalog_path).stdout)
    assert card["rulings_lang"] == "it" and card["rulings"]
    assert [sorted(r) for r in card["rulings"]] == [sorted(r) for r in ruling["rulings"]]
    assert card["rulings"] == [r for r in ruling["rulings"] if r["lang"] == "it"]
    assert all(r["english_original"] for r in card["rulings"]), "translations come with their English original"


def test_the_command_line_prints_answers_as_the_console_does_markdown_drawn(bundled_catalog_path):
    out = run(["ruling", "defossilizzare", "--lang", "it"], bundled_catalog_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "Sorcery" in lines and "*Sorcery*" not in out.stdout
    assert "Traduzione parziale: alcune frasi sono ancora in inglese." in lines


def test_card_in_italian(bundled_catalog_path):
    out = run(["card", "Defossilizzare", "--lang", "it"], bundled_catalog_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("Defossilize")
    lines = out.stdout.splitlines()
    # the lines around the rulings in their language too: languages, sources and translations in words,
    # as the rulings' pages say them
    assert {"Inglese: Defossilize", "Italiano: Defossilizzare", "6 chiarimenti in italiano:"} <= set(lines)
    assert lines.count("- 2023-11-10 · Fonte: WotC") == 6
    assert lines.count("  Traduzione parziale: alcune frasi sono ancora in inglese.") == 1
    assert not [raw for raw in ("[wotc]", "(translation)", "(partial", " in it:", "in en") if raw in out.stdout]


def test_card_refuses_a_name_of_no_single_card_in_words_in_the_readers_language(bundled_catalog_path, tmp_path):
    out = run(["card", "Jade", "--lang", "fr"], bundled_catalog_path)
    assert out.returncode == 1 and out.stdout.splitlines() == [
        "Plusieurs cartes correspondent à « Jade » : choisissez-en une ci-dessous.", "",
        "  • Jadelight Ranger", "  • Jadelight Spelunker"]
    env = dict(os.environ, WAYFINDER_CATALOG=str(bundled_catalog_path), WAYFINDER_CONSOLE_LANG="de")
    env.pop("DISCORD_TOKEN", None)
    out = subprocess.run([sys.executable, "-m", "bot", "card", "zzqq"], capture_output=True, text=True, cwd=PROJECT,
                         env=env, timeout=120)
    assert out.returncode == 1 and out.stdout.strip() == "Keine Karte heißt „zzqq“."
    data = json.loads(run(["card", "zzqq", "--json"], bundled_catalog_path).stdout)
    assert (data["error"], data["status"], data["candidates"]) == ("no single card", "none", [])


def test_card_says_the_names_languages_and_an_unknown_source_in_words(bundled_catalog_path):
    lines = run(["card", "Jadelight Ranger", "--lang", "ja"], bundled_catalog_path).stdout.splitlines()
    assert {"英語：Jadelight Ranger", "日本語：翡翠光のレインジャー", "中国語（繁体字）：玉光巡林客"} <= set(lines)
    lines = run(["card", "agente da rainha"], bundled_catalog_path).stdout.splitlines()
    assert "6 esclarecimentos em português:" in lines and lines.count("- 2018-01-19 · fonte desconhecida") == 6
    assert "  também redigido: " in "\n".join(lines)
    data = json.loads(run(["card", "Defossilizzare", "--lang", "it", "--json"], bundled_catalog_path).stdout)
    assert [(r["lang"], r["status"], r["source"]) for r in data["rulings"]].count(("it", "partial", "wotc")) == 1


def test_resolve_reads_names_from_stdin_one_json_line_each(bundled_catalog_path):
    out = run(["resolve", "--json"], bundled_catalog_path, stdin="guidevoie\n\nzzqqxx\n")
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line["status"] for line in lines] == ["one", "none", "none"]
    assert lines[0]["name"] == "Tishana's Wayfinder" and lines[0]["lang"] == "fr"
    assert out.returncode == 1


def test_a_one_shot_ruling_writes_its_dates_and_language_as_babel_does(bundled_catalog_path):
    # a one-shot command loads Babel's formatting only when it writes a date: what it writes is
    # what Babel's full locale data writes, in scripts and word orders far from English
    from datetime import date

    from babel import Locale
    from babel.dates import format_date

    from bot.languages import BABEL_LOCALE
    for lang in ("ja", "ru"):
        locale = Locale.parse(BABEL_LOCALE[lang])
        data = json.loads(run(["ruling", "defossilizzare", "--lang", lang, "--json"], bundled_catalog_path).stdout)
        text = run(["ruling", "defossilizzare", "--lang", lang], bundled_catalog_path).stdout
        published = {r["published_at"] for r in data["rulings"]}
        assert published
        for day in published:
            written = format_date(date.fromisoformat(day), format="long", locale=locale)
            assert f"— {written} · " in text, (written, text)
        assert locale.get_display_name(locale).split(" (")[0] in text   # "no printed text … in русский"


def test_ruling_json_in_a_language(bundled_catalog_path):
    out = run(["ruling", "lanterne calotte", "--lang", "fr", "--json"], bundled_catalog_path)
    data = json.loads(out.stdout)
    assert data["name"] == "Glowcap Lantern" and data["no_translation"] is True


def test_data_info(bundled_catalog_path):
    out = run(["data", "info", "--json"], bundled_catalog_path)
    info = json.loads(out.stdout)
    assert info["rulings_per_language"]["en"] == 18
    assert info["ruling_statuses"]["partial"] == 2


def test_unknown_language_is_refused(bundled_catalog_path):
    out = run(["card", "x", "--lang", "xx"], bundled_catalog_path)
    assert out.returncode == 2 and "not a print language" in out.stderr


def test_explore_scenario_json(bundled_catalog_path, tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"library": ["Opt", "Forest"], "battlefield": [{"id": "w", "card": "Wildgrowth Walker"}],
                                    "action": {"enter": "Jadelight Ranger", "id": "j"}, "choices": ["graveyard"]}))
    out = run(["explore", "--scenario", str(scenario), "--json"], bundled_catalog_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [e["revealed"] for e in data["explored"]] == ["Opt", "Forest"]
    assert data["state"]["life"] == 26 and data["state"]["graveyard"] == ["Opt"]
    assert all("cites" in e for e in data["events"])


def test_explore_scenario_errors_are_clear(bundled_catalog_path, tmp_path):
    scenario = tmp_path / "bad.json"
    scenario.write_text("{not json")
    out = run(["explore", "--scenario", str(scenario)], bundled_catalog_path)
    assert out.returncode == 2 and "not valid JSON" in out.stderr and "Traceback" not in out.stderr
    out = run(["explore", "--scenario", str(tmp_path / "missing.json")], bundled_catalog_path)
    assert out.returncode == 2 and "no such file" in out.stderr


def test_explore_scenario_with_a_preset_deck_and_seed(bundled_catalog_path, tmp_path):
    scenario = tmp_path / "deck.json"
    scenario.write_text(json.dumps({"deck": "ixalan", "seed": 42, "battlefield": [{"id": "j", "card": "Jadelight Ranger"}],
                                    "action": {"explore": "j", "times": 2}}))
    first = run(["explore", "--scenario", str(scenario), "--json"], bundled_catalog_path)
    second = run(["explore", "--scenario", str(scenario), "--json"], bundled_catalog_path)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout) == json.loads(second.stdout)
    assert len(json.loads(first.stdout)["state"]["library"]) in (58, 59, 60)


def test_explore_scenario_refusals_are_said_in_the_chosen_language(bundled_catalog_path, tmp_path):
    scenario = tmp_path / "tapped.json"
    scenario.write_text(json.dumps({"battlefield": [{"id": "c", "card": "Merfolk Branchwalker", "tapped": True}],
                                    "action": {"attack": "c"}}))
    out = run(["explore", "--scenario", str(scenario), "--lang", "fr"], bundled_catalog_path)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "une créature engagée ne peut pas être déclarée comme attaquante (CR 508.1a)" in out.stderr
    scenario.write_text(json.dumps({"action": {"explore": "c", "times": "lots"}}))
    out = run(["explore", "--scenario", str(scenario), "--lang", "ja"], bundled_catalog_path)
    assert out.returncode == 2 and "「times」は'lots'ではなく整数でなければならない。" in out.stderr


def test_rule_works_on_the_bundled_catalog_with_no_network(bundled_catalog_path):
    out = run(["rule", "701.44"], bundled_catalog_path)
    assert out.returncode == 0, out.stderr
    assert "701.44. Explore" in out.stdout and "701.44a" in out.stdout and "701.44d" in out.stdout
    assert "Comprehensive Rules, effective January 16, 2026" in out.stdout
    old = json.loads(run(["rule", "explore", "--json"], bundled_catalog_path).stdout)
    assert old["kind"] == "glossary" and old["glossary"] == ["Explore"] and "701.44" in old["rules"]


LOADED_MODULES = """
import json, sys
from bot.__main__ import main
status = main(sys.argv[1:])
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""
# what a look-up by an exact name never needs: the Discord library, the importer, the settings
# database, typo matching, the /ask search, the rules book (a ruling's keyword rules need titles only),
# the /ask index builder's process
NOT_FOR_A_LOOK_UP = ("discord", "aiohttp", "bot.catalog.importer", "bot.catalog.build", "bot.settings.store",
                     "rapidfuzz", "bot.ask", "bot.rules.book", "subprocess")


def test_one_shot_look_ups_by_exact_name_load_only_what_they_use(bundled_catalog_path, tmp_path):
    scenario = tmp_path / "scenario.json"
    scenario.write_text(json.dumps({"library": ["Forest"], "battlefield": [],
                                    "action": {"enter": "Jadelight Ranger", "id": "j"}}), encoding="utf-8")
    env = dict(os.environ, WAYFINDER_CATALOG=str(bundled_catalog_path), WAYFINDER_LOG_LEVEL="WARNING")
    env.pop("DISCORD_TOKEN", None)
    for args in (["card", "Jadelight Ranger"], ["ruling", "Jadelight Ranger"], ["resolve", "Jadelight Ranger"],
                 ["explore", "--scenario", str(scenario)]):
        out = subprocess.run([sys.executable, "-c", LOADED_MODULES, *args], capture_output=True, text=True,
                             cwd=PROJECT, env=env, timeout=120)
        assert out.returncode == 0, out.stderr
        assert "Jadelight Ranger" in out.stdout or "explore" in out.stdout.lower(), out.stdout
        loaded = json.loads(out.stderr.splitlines()[-1])
        # only `ruling` and `card` write what Babel knows: dates, and the languages' names
        needless = [m for m in loaded if m.startswith(NOT_FOR_A_LOOK_UP + (("babel",) if args[0] not in ("ruling", "card")
                                                                          else ()))]
        assert not needless, f"wayfinder {' '.join(args)} loaded {needless}"


COLLECTOR_AROUND_IMPORTS = """
import gc, json, sys
from bot.__main__ import main
import bot.catalog.importer as importer
collections, importing = [], []
gc.callbacks.append(lambda phase, info: collections.append(info["generation"]) if phase == "start" and importing else None)
real_import = importer.import_files
def import_files(*args, **kwargs):   # the collections during the import itself
    importing.append(1)
    try:
        return real_import(*args, **kwargs)
    finally:
        importing.clear()
importer.import_files = import_files
seen = []
for files in json.loads(sys.argv[1]):
    if files == "off":
        gc.disable()
        continue
    collections.clear()
    status = main(["data", "import", "--no-progress", *files])
    seen.append([status, gc.isenabled(), len(collections)])
print(json.dumps(seen))
"""


def test_an_import_from_the_command_line_leaves_the_garbage_collector_as_it_found_it(tmp_path):
    """The import runs with Python's collector paused; a program that calls the command (a
    scheduler, a wrapper) gets it back on afterwards, whether the import succeeded, was refused or
    broke off half-way, and still off if it had turned it off itself."""
    good = tmp_path / "cards.json"
    good.write_text(json.dumps([{"object": "card", "oracle_id": "00000000-0000-4000-8000-000000000001",
                                 "name": "Test Explorer", "lang": "en", "layout": "normal",
                                 "type_line": "Creature — Merfolk Scout", "oracle_text": "", "mana_cost": "{G}"}]))
    cut = tmp_path / "cut.json"
    cut.write_text(good.read_text()[:-40])
    runs = [[str(good)], [str(tmp_path / "missing.json")], [str(cut)], "off", [str(good)]]
    env = dict(os.environ, WAYFINDER_CATALOG=str(tmp_path / "catalog.sqlite3"), WAYFINDER_LOG_LEVEL="WARNING")
    out = subprocess.run([sys.executable, "-c", COLLECTOR_AROUND_IMPORTS, json.dumps(runs)], capture_output=True,
                         text=True, cwd=PROJECT, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    (first, missing, broken, while_off) = json.loads(out.stdout.splitlines()[-1])
    assert first == [0, True, 0]          # a new catalog: the bundled data and the file, with no collection
    assert missing[0] != 0 and missing[1] is True
    assert broken[0] != 0 and broken[1] is True
    assert while_off == [0, False, 0]
