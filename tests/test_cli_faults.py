"""Bad input on the command line: one clear line naming the file and the position, a non-zero exit,
no traceback, and the catalog and the settings exactly as they were."""
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zlib

import pytest

from bot.i18n import messages
from bot.languages import LANGUAGES
from tests.helpers import PROJECT

CARD = {"object": "card", "oracle_id": "00000000-0000-4000-8000-000000000001", "name": "Test Explorer",
        "lang": "en", "layout": "normal", "type_line": "Creature — Merfolk Scout", "oracle_text": "",
        "mana_cost": "{G}"}


@pytest.fixture
def home(bundled_catalog_path, tmp_path):
    """A catalog and a settings database of our own, to check that nothing touches them."""
    catalog = tmp_path / "catalog.sqlite3"
    shutil.copy(bundled_catalog_path, catalog)
    for index in bundled_catalog_path.parent.glob(bundled_catalog_path.name + ".names*"):
        shutil.copy(index, tmp_path / index.name.replace(bundled_catalog_path.name, catalog.name))
    settings = tmp_path / "settings.sqlite3"
    assert wayfinder(["db", "migrate"], catalog, settings).returncode == 0
    return catalog, settings


def wayfinder(args, catalog, settings, env=None, **kwargs):
    environment = dict(os.environ, WAYFINDER_CATALOG=str(catalog), WAYFINDER_SETTINGS_DB=str(settings),
                       WAYFINDER_LOG_LEVEL="WARNING")
    environment.update(env or {})
    environment.pop("DISCORD_TOKEN", None) if "DISCORD_TOKEN" not in (env or {}) else None
    return subprocess.run([sys.executable, "-m", "bot", *map(str, args)], cwd=PROJECT, env=environment,
                          capture_output=True, text=True, timeout=120, **kwargs)


def digests(*paths):
    return [hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else None for p in paths]


# "error: …" in the language of the command (its --lang, else the operator's)
ERROR_PREFIXES = tuple({messages(lang)._("error: {reason}", reason="") for lang in LANGUAGES})


def refused(home, args, *expected, env=None):
    """Run a command that must fail cleanly; its one error line."""
    before = digests(*home)
    out = wayfinder(args, *home, env=env)
    assert out.returncode != 0, out.stdout
    assert "Traceback" not in out.stderr, out.stderr
    errors = [line for line in out.stderr.splitlines() if line.startswith(ERROR_PREFIXES)]
    assert len(errors) == 1, out.stderr
    for word in expected:
        assert word in errors[0], errors[0]
    assert digests(*home) == before, "the catalog and the settings are untouched"
    return errors[0]


def cards_gz(count):
    text = json.dumps([dict(CARD, oracle_id=f"00000000-0000-4000-8000-{i:012d}", name=f"Card {i}",
                            oracle_text=f"Card {i} explores. " * 3) for i in range(count)])
    return gzip.compress(text.encode(), compresslevel=1)


def uncompressed_length(data: bytes) -> int:
    return len(zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data))


def test_a_gzip_file_cut_in_its_first_4_kib(home, tmp_path):
    cut = tmp_path / "cut.json.gz"
    data = cards_gz(500)
    cut.write_bytes(data[:300])
    assert uncompressed_length(data[:300]) < 4096
    line = refused(home, ["data", "import", "--no-progress", cut], str(cut), "truncated or corrupt")
    assert f"near byte {uncompressed_length(data[:300]):,}" in line


def test_a_file_cut_after_a_few_kilobytes_gives_the_real_offset(home, tmp_path):
    cut = tmp_path / "cut.json.gz"
    data = cards_gz(2000)
    cut.write_bytes(data[:6000])
    line = refused(home, ["data", "import", "--no-progress", cut], str(cut))
    assert f"near byte {uncompressed_length(data[:6000]):,}" in line
    assert int(re.search(r"after record ([\d,]+)", line).group(1).replace(",", "")) > 10


def test_scryfall_records_with_wrong_field_types_are_skipped_and_counted(home, tmp_path):
    catalog, settings = home
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps([
        dict(CARD, name={"en": "Test Explorer"}),
        dict(CARD, oracle_id=["00000000-0000-4000-8000-000000000002"], name="Listed"),
        dict(CARD, oracle_id="00000000-0000-4000-8000-000000000003", name="Faced", card_faces="Front // Back"),
        dict(CARD, oracle_id="00000000-0000-4000-8000-000000000004", name="Good Card"),
    ]))
    out = wayfinder(["data", "import", "--no-progress", cards], catalog, settings)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "3 skipped (the first: record 1: name is an object, not text)" in out.stdout
    found = wayfinder(["card", "Good Card", "--json"], catalog, settings)
    assert json.loads(found.stdout)["name"] == "Good Card"


def test_a_rules_file_with_an_invalid_byte(home, tmp_path):
    rules = tmp_path / "MagicCompRules-20260116.txt"
    rules.write_bytes("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of January 16,"
                      " 2026.\n\n1. Game Concepts — the basics\n\n100. General\n\n100.1. These ".encode()
                      + b"\xff" + b"rules\n")
    refused(home, ["data", "import", "--no-progress", rules], str(rules), "byte 0xff", "line 9")


def test_rules_diff_given_a_binary_file(home, tmp_path):
    binary = tmp_path / "picture.png"
    binary.write_bytes(bytes(range(256)) * 40)
    refused(home, ["rules", "diff", binary, binary], str(binary), "byte")


@pytest.mark.parametrize("lang, words", [
    ("en", ("is nested too deeply", "line 1, column 101")),
    ("fr", ("est imbriqué trop profondément", "ligne 1, colonne 101")),
    ("ja", ("入れ子が深すぎる", "1行101列")),
])
def test_a_scenario_nested_100000_deep(home, tmp_path, lang, words):
    """Said in the reader's language like every other scenario error, not in English."""
    scenario = tmp_path / "deep.json"
    scenario.write_text("[" * 100_000 + "]" * 100_000)
    refused(home, ["explore", "--scenario", scenario, "--lang", lang], str(scenario), *words)


def test_a_scenario_file_that_cannot_be_read_says_why_in_words_in_the_operators_language(home, tmp_path):
    """Without --lang, in WAYFINDER_CONSOLE_LANG's language as every command's refusals; the
    reason in words, not the system's or the JSON decoder's English."""
    folder, latin1, broken = tmp_path / "a-folder", tmp_path / "latin1.json", tmp_path / "broken.json"
    folder.mkdir()
    latin1.write_bytes(b'{"action":\n  {"explore": "\xe9"}}')
    broken.write_text('{"action":\n  {"explore" "c"}}')
    russian = {"WAYFINDER_CONSOLE_LANG": "ru"}
    for path, line in ((tmp_path / "missing.json", f"ошибка: {tmp_path / 'missing.json'}: файл не найден."),
                       (folder, f"ошибка: Не удаётся прочитать {folder}: это папка"),
                       (latin1, f"ошибка: {latin1} — не текст в UTF-8 (байт 26, строка 2)."),
                       (broken, f"ошибка: {broken} — некорректный JSON (строка 2, столбец 14).")):
        assert refused(home, ["explore", "--scenario", path], env=russian) == line
    assert refused(home, ["explore", "--scenario", broken, "--lang", "de"], env=russian) == \
        f"Fehler: {broken} ist kein gültiges JSON (Zeile 2, Spalte 14)."
    assert refused(home, ["explore", "--scenario", folder]) == f"error: {folder} can't be read: it is a folder"


def test_a_scenario_is_narrated_in_the_operators_language_without_lang(home, tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps({"library": ["Opt"], "battlefield": [{"id": "j", "card": "Jadelight Ranger"}],
                                    "action": {"explore": "j"}, "choices": ["graveyard"]}))
    french = wayfinder(["explore", "--scenario", scenario], *home, env={"WAYFINDER_CONSOLE_LANG": "fr"})
    chosen = wayfinder(["explore", "--scenario", scenario, "--lang", "fr"], *home)
    english = wayfinder(["explore", "--scenario", scenario, "--lang", "en"], *home, env={"WAYFINDER_CONSOLE_LANG": "fr"})
    assert french.returncode == 0, french.stderr
    assert french.stdout == chosen.stdout != english.stdout
    assert "Ranger jadefeu" in french.stdout and "Ranger jadefeu" not in english.stdout


def test_settings_database_that_is_a_folder(home, tmp_path):
    catalog, _ = home
    folder = tmp_path / "settings-folder"
    folder.mkdir()
    refused((catalog, folder), ["db", "check"], str(folder), "is a folder")
    # the bot's start-up stops before connecting anywhere
    refused((catalog, folder), [], str(folder), "is a folder", env={"DISCORD_TOKEN": "not-a-real-token"})
    assert list(folder.iterdir()) == []



@pytest.mark.parametrize("variable, value, allowed", [
    ("WAYFINDER_REFRESH_HOURS", "abc", "a number of hours, 0 or more (0: never)"),
    ("WAYFINDER_REFRESH_HOURS", "-1", "a number of hours, 0 or more (0: never)"),
    ("WAYFINDER_REFRESH_HOURS", "1e999", "a number of hours, 0 or more (0: never)"),
    ("WAYFINDER_REFRESH_TYPES", "all_card,rulings",
     "one or more of oracle_cards, default_cards, all_cards, rulings, separated by commas"),
    ("WAYFINDER_SYNC_COMMANDS", "yes", "one of 0, 1, force"),
])
def test_a_malformed_refresh_or_sync_setting_stops_the_bot_at_start(home, variable, value, allowed):
    """Found when the configuration is read, not at the first refresh hours later or the sync; before
    Discord, the catalog or the settings are touched."""
    line = refused(home, [], env={"DISCORD_TOKEN": "not-a-real-token", variable: value})
    assert line == f"error: {variable} must be {allowed}, not {value!r}"


@pytest.mark.parametrize("args", [["resolve", "Opt"], ["data", "import", "--no-progress", "cards.jsonl"]])
def test_every_command_reading_the_configuration_refuses_a_malformed_setting(home, tmp_path, args):
    (tmp_path / "cards.jsonl").write_text(json.dumps(CARD) + "\n")
    refused(home, [tmp_path / a if a.endswith(".jsonl") else a for a in args], "WAYFINDER_REFRESH_HOURS", "'soon'",
            env={"WAYFINDER_REFRESH_HOURS": "soon"})


def test_shard_ids_without_a_shard_count_stop_the_bot_at_start_in_one_line(home):
    """Not discord.py's exception and its traceback once the bot is logging in."""
    env = {"DISCORD_TOKEN": "not-a-real-token", "SHARD_IDS": "0,1"}
    line = refused(home, [], env=env)
    assert line == "error: SHARD_IDS must be shard ids separated by commas, set only together with SHARD_COUNT, not '0,1'"
    assert wayfinder([], *home, env=env).returncode == 2


def test_a_malformed_number_in_any_setting_is_named(home):
    refused(home, ["resolve", "Opt"], "SHARD_IDS must be shard ids", "from 0 to 1 (SHARD_COUNT)", "not '0,2'",
            env={"SHARD_COUNT": "2", "SHARD_IDS": "0,2"})
    refused(home, ["resolve", "Opt"], "WAYFINDER_VIEW_TIMEOUT must be a number of seconds", "not 'ten'",
            env={"WAYFINDER_VIEW_TIMEOUT": "ten"})
    refused(home, ["resolve", "Opt"], "WAYFINDER_IMPORT_WAIT must be a number of seconds, 0 or more", "not '-5'",
            env={"WAYFINDER_IMPORT_WAIT": "-5"})
    # a log level logging does not know was taken for INFO
    refused(home, ["resolve", "Opt"], "WAYFINDER_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL",
            "not 'verbose'", env={"WAYFINDER_LOG_LEVEL": "verbose"})


def test_a_misspelt_bulk_type_is_refused_before_scryfall_is_asked(home, tmp_path):
    from tests.catalog.test_sync import FakeScryfall
    scryfall = FakeScryfall({})
    try:
        refused(home, ["data", "sync", "--no-progress", "--types", "all_card,rulings", "--base-url", scryfall.url],
                "--types must be one or more of oracle_cards, default_cards, all_cards, rulings, separated by"
                " commas, not 'all_card,rulings'", env={"WAYFINDER_DOWNLOADS": str(tmp_path / "downloads")})
    finally:
        scryfall.close()
    assert scryfall.requests == [] and not (tmp_path / "downloads").exists()


def test_an_import_waits_for_another_one_only_so_long(home, tmp_path):
    from bot.catalog.build import import_lock
    catalog, _ = home
    cards = tmp_path / "cards.jsonl"
    cards.write_text(json.dumps(CARD) + "\n")
    with import_lock(catalog, 0):         # another import, under way
        refused(home, ["data", "import", "--no-progress", cards],
                f"error: {catalog}: another import (pid {os.getpid()}) is still running after 0.5 s of waiting;"
                " nothing was imported (WAYFINDER_IMPORT_WAIT sets the wait)", env={"WAYFINDER_IMPORT_WAIT": "0.5"})
    assert wayfinder(["data", "import", "--no-progress", cards], *home).returncode == 0


def test_the_first_start_waits_for_another_import_only_as_configured(tmp_path):
    """No catalog yet: the bundled one is built, after another import into the same file, waited
    for WAYFINDER_IMPORT_WAIT seconds like any import (not ten minutes)."""
    from bot.catalog.build import import_lock
    catalog, settings = tmp_path / "catalog.sqlite3", tmp_path / "settings.sqlite3"
    with import_lock(catalog, 0):
        out = wayfinder(["resolve", "Opt"], catalog, settings, env={"WAYFINDER_IMPORT_WAIT": "0.5"})
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.strip() == (f"error: {catalog}: another import (pid {os.getpid()}) is still running after"
                                  " 0.5 s of waiting; nothing was imported (WAYFINDER_IMPORT_WAIT sets the wait)")
    assert wayfinder(["resolve", "Opt"], catalog, settings).returncode == 0


def test_output_closed_early_is_not_a_traceback(home):
    catalog, settings = home
    environment = dict(os.environ, WAYFINDER_CATALOG=str(catalog), WAYFINDER_SETTINGS_DB=str(settings),
                       WAYFINDER_LOG_LEVEL="WARNING")
    proc = subprocess.Popen([sys.executable, "-m", "bot", "card", "Queen's Agent", "--json"], cwd=PROJECT,
                            env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()   # as `| head` does once it has read enough
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert proc.returncode != 0 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == ("error: the output was closed before everything was written"
                                            " (broken pipe)")


def test_well_formed_refresh_settings_are_taken_as_written(home):
    env = {"WAYFINDER_REFRESH_HOURS": "0.5", "WAYFINDER_REFRESH_TYPES": " rulings , all_cards,",
           "WAYFINDER_LOG_LEVEL": "error"}
    assert wayfinder(["resolve", "Opt"], *home, env=env).returncode == 0
