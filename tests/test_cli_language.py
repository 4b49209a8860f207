"""The command line's own lines — import progress and summaries, `data info`, `db`, refusals — in
the operator's language (WAYFINDER_CONSOLE_LANG, as the console), numbers as that language writes
them; --json stays the same in every language."""
import json
import os
import subprocess
import sys

import pytest

from bot.catalog.build import ImportReport
from bot.catalog.report_text import summary_text
from bot.i18n import Note, messages, said
from bot.languages import LANGUAGES
from tests.helpers import PROJECT

RULES = PROJECT / "data" / "rules" / "MagicCompRules-20260116.txt.gz"
QUEENS_AGENT = PROJECT / "data" / "seeds" / "queens-agent.pt.txt"


def wayfinder(args, tmp_path, lang, **settings):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WAYFINDER_", "DISCORD_"))}
    env.update(WAYFINDER_CATALOG=str(tmp_path / "catalog.sqlite3"), WAYFINDER_SETTINGS_DB=str(tmp_path / "settings.sqlite3"),
               WAYFINDER_LOG_LEVEL="WARNING", WAYFINDER_CONSOLE_LANG=lang, **settings)
    return subprocess.run([sys.executable, "-m", "bot", *map(str, args)], cwd=PROJECT, env=env, capture_output=True,
                          text=True, timeout=300)


def rules(lang: str, count: int) -> str:
    return Note("{count} rule", "{count} rules", count=count).localized(messages(lang))


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_an_import_summary_is_written_in_every_language(lang):
    report = ImportReport("cr/MagicCompRules-20260116.txt", "comprehensive rules",
                          {"rules": 3114, "glossary entries": 725, "examples": 276})
    english, line = report.summary(), summary_text(report, messages(lang))
    assert english == ("comprehensive rules MagicCompRules-20260116.txt: 276 examples, 725 glossary entries,"
                       " 3,114 rules")
    assert line != english and "MagicCompRules-20260116.txt" in line
    assert messages(lang)._("comprehensive rules") in line and rules(lang, 3114) in line
    skipped = ImportReport.skipped_file("zzyzx.txt", "ruling document", Note(
        "no card in the catalog matches the title {title}", title="'Zzyzx'"))
    assert "'Zzyzx'" in summary_text(skipped, messages(lang)) != skipped.summary()


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_everything_a_report_can_count_is_said_in_every_language(lang):
    from bot.catalog.report_text import COUNTS, counts_text
    from bot.i18n import _translations
    catalog = _translations(lang)._catalog
    assert not [forms for forms in COUNTS.values() if (forms[0], 0) not in catalog]   # a plural message, translated
    counts = {what: 2 for what in COUNTS}
    assert counts_text(counts, messages(lang)) == ", ".join(
        Note(*COUNTS[what], count=2).localized(messages(lang)) for what in sorted(COUNTS))


def test_a_report_refuses_a_count_it_could_not_say():
    """So a new count comes with its messages, rather than shown in English in every language."""
    report = ImportReport("cards.json", "scryfall-cards")
    report.add("cards", 3)
    with pytest.raises(ValueError, match="widgets"):
        report.add("widgets")
    with pytest.raises(ValueError, match="widgets"):
        ImportReport("cards.json", "scryfall-cards", {"widgets": 1})
    assert report.counts == {"cards": 3}


def test_data_import_speaks_french_with_french_numbers(tmp_path):
    out = wayfinder(["data", "import", "--no-progress", RULES, QUEENS_AGENT], tmp_path, "fr")
    assert out.returncode == 0, out.stderr
    assert "règles complètes MagicCompRules-20260116.txt.gz : " in out.stdout
    assert rules("fr", 3114) in out.stdout and "3,114" not in out.stdout   # 3 114 règles
    assert "document de clarifications queens-agent.pt.txt : 1 doublon fusionné" in out.stdout
    assert "clarifications traduites reliées à leur original anglais" in out.stdout
    assert "English" not in out.stdout and "skipped" not in out.stdout
    info = wayfinder(["data", "info"], tmp_path, "fr").stdout.splitlines()
    assert info[0] == f"catalogue : {tmp_path / 'catalog.sqlite3'}"
    assert "éditions des Règles complètes : 16 janvier 2026" in info
    assert "dates des clarifications : du 19 janvier 2018 au 10 novembre 2023" in info


def test_refusals_are_one_line_in_the_operators_language_and_change_nothing(tmp_path):
    missing = tmp_path / "nowhere.json"
    out = wayfinder(["data", "import", "--no-progress", missing], tmp_path, "ja")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip() == f"エラー: {missing}: そのようなファイルはありません"
    assert not (tmp_path / "catalog.sqlite3").exists() or "nowhere" not in wayfinder(
        ["data", "info", "--json"], tmp_path, "en").stdout
    out = wayfinder(["db", "check"], tmp_path, "de")
    assert out.returncode == 2 and out.stderr.startswith("Fehler: unter ") and len(out.stderr.splitlines()) == 1
    assert not (tmp_path / "settings.sqlite3").exists()
    out = wayfinder(["ruling", "Opt", "--lang", "xx"], tmp_path, "ko")
    assert out.returncode == 2 and out.stderr.strip().startswith("오류: 인쇄 언어가 아닙니다: 'xx'")


def test_a_refused_option_or_setting_says_what_it_takes_in_the_operators_language(tmp_path):
    out = wayfinder(["data", "sync", "--no-progress", "--types", "all_card", "--base-url", "http://127.0.0.1:9"],
                    tmp_path, "fr")
    assert out.returncode == 2 and out.stderr.strip() == (
        "erreur : --types doit être un ou plusieurs de oracle_cards, default_cards, all_cards, rulings,"
        " séparés par des virgules, et non 'all_card'")
    out = wayfinder(["data", "sync", "--types", "all_card"], tmp_path, "ja")
    assert out.stderr.strip() == ("エラー: --types は oracle_cards, default_cards, all_cards, rulings のうち 1 つ以上"
                                  "（カンマ区切り） でなければなりません（'all_card' は使えません）")
    assert not (tmp_path / "catalog.sqlite3").exists()
    from bot.config import Config, ConfigError
    with pytest.raises(ConfigError) as refused:
        Config.from_env({"SHARD_COUNT": "2000", "SHARD_IDS": "0,2000"})
    assert said(refused.value, messages("de")) == ("SHARD_IDS muss durch Kommas getrennte Shard-IDs, jede eine"
                                                       " ganze Zahl von 0 bis 1.999 (SHARD_COUNT) sein, nicht '0,2000'")


def test_a_malformed_setting_is_refused_in_the_language_the_configuration_names(tmp_path):
    """Read before any other setting, so that a refusal of any other is in that language."""
    out = wayfinder(["resolve", "Opt"], tmp_path, "de", WAYFINDER_REFRESH_HOURS="bald")
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.strip() == "Fehler: WAYFINDER_REFRESH_HOURS muss eine Anzahl Stunden, 0 oder mehr (0: nie) sein, nicht 'bald'"
    out = wayfinder(["data", "import", "--no-progress", QUEENS_AGENT], tmp_path, "zh-TW", SHARD_IDS="0,1")
    assert out.returncode == 2 and out.stderr.strip().startswith("錯誤：SHARD_IDS ")
    assert not (tmp_path / "catalog.sqlite3").exists() and not (tmp_path / "settings.sqlite3").exists()


@pytest.mark.parametrize("value", ["xx", "english", "fr_FR"])
def test_a_language_that_is_not_one_is_refused_like_any_malformed_setting(tmp_path, value):
    """Not taken silently for the system locale's."""
    out = wayfinder(["data", "import", "--no-progress", QUEENS_AGENT], tmp_path, value)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert out.stderr.strip() == (f"error: WAYFINDER_CONSOLE_LANG must be one of {', '.join(LANGUAGES)}, not {value!r}")
    assert not (tmp_path / "catalog.sqlite3").exists()


def test_a_language_is_read_in_any_of_its_spellings():
    from bot.config import Config
    assert [Config.from_env({"WAYFINDER_CONSOLE_LANG": value}).console_lang
            for value in ("DE", " pt-BR ", "zh-CN", "zht", "")] == ["de", "pt", "zhs", "zht", None]


def test_the_bot_refuses_settings_it_cannot_use_in_the_operators_language(tmp_path):
    (tmp_path / "settings.sqlite3").mkdir()
    out = wayfinder([], tmp_path, "fr", DISCORD_TOKEN="not-a-real-token")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().splitlines()[-1] == Note(
        "{path} is a folder, not a settings database: name a file in it", path=tmp_path / "settings.sqlite3").localized(
        messages("fr")).join(("erreur : ", ""))
    assert list((tmp_path / "settings.sqlite3").iterdir()) == []


def test_db_lines_in_russian(tmp_path):
    from bot.settings.store import migrations
    latest = migrations("sqlite")[-1][0]
    applied = ", ".join(f"{n:03d}" for n in range(1, latest + 1))
    migrated = wayfinder(["db", "migrate"], tmp_path, "ru")
    assert migrated.returncode == 0, migrated.stderr
    assert migrated.stdout.strip() == f"{tmp_path / 'settings.sqlite3'}: версия схемы {latest} (применены: {applied})"
    checked = wayfinder(["db", "check"], tmp_path, "ru")
    assert checked.stdout.strip() == f"{tmp_path / 'settings.sqlite3'}: версия схемы {latest} из {latest}, актуальна"


def test_json_is_the_same_in_every_operator_language(tmp_path):
    assert wayfinder(["data", "import", "--no-progress", QUEENS_AGENT], tmp_path, "en").returncode == 0
    english = json.loads(wayfinder(["data", "info", "--json"], tmp_path, "en").stdout)
    for lang in ("fr", "zht"):
        assert json.loads(wayfinder(["data", "info", "--json"], tmp_path, lang).stdout) == english
    assert english["rulings_per_language"]["pt"] == 6


def test_a_cut_file_is_refused_in_one_french_line_with_french_numbers(tmp_path):
    cards = [{"object": "card", "id": str(i), "oracle_id": f"00000000-0000-4000-8000-{i:012d}", "name": f"Card {i}",
              "lang": "en", "layout": "normal"} for i in range(3000)]
    text = json.dumps(cards)
    cut = tmp_path / "cut.json"
    cut.write_text(text[:-500])
    out = wayfinder(["data", "import", "--no-progress", cut], tmp_path, "fr")
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1, out.stderr
    fr = messages("fr")
    assert out.stderr.startswith(f"erreur : {cut} (après l'enregistrement {fr.number(2996)}, vers l'octet ")
    assert "fichier tronqué ou corrompu : " in out.stderr
