"""A record an importer skips is said in the reader's language: what the record is, what is wrong
with it (the field and the kind of value it holds), in every language the messages are written in."""
import json
import shutil

import pytest

from bot.catalog.importer import import_files
from bot.catalog.report_text import summary_text
from bot.i18n import _translations, messages, said
from bot.languages import LANGUAGES

ORACLE = "00000000-0000-4000-8000-0000000000{:02d}"
CARD = {"object": "card", "name": "Test Explorer", "lang": "en", "layout": "normal", "type_line": "Creature",
        "oracle_text": "", "mana_cost": "{G}"}
# every way a record is skipped, and what is said of it (in English)
CARDS = [   # the first record tells a card file
    (dict(CARD, oracle_id=ORACLE.format(1), name="Kept"), None),
    (5, "record 2: not a card object"),
    (dict(CARD, oracle_id=ORACLE.format(3), name={"en": "x"}), "record 3: name is an object, not text"),
    (dict(CARD, oracle_id=ORACLE.format(4), card_faces=[3]), "record 4: card_faces[0] is a number, not an object"),
    (dict(CARD, oracle_id=ORACLE.format(5), card_faces=[{"name": ["a"]}]),
     "record 5: card_faces[0].name is a list, not text"),
    (dict(CARD, oracle_id=ORACLE.format(6), image_uris={"normal": True}),
     "record 6: image_uris.normal is true or false, not text"),
    (dict(CARD, name="Nameless"), "record 7: no oracle_id or name"),
    (dict(CARD, object="set", oracle_id=ORACLE.format(8)), "record 8: not a card object"),
]
RULINGS = [   # the first record tells a rulings file
    ({"object": "ruling", "oracle_id": ORACLE.format(99), "comment": "?"},
     f"record 1: ruling for unknown card {ORACLE.format(99)}"),
    (3, "record 2: not a ruling object"),
    ({"object": "ruling", "oracle_id": ORACLE.format(1), "comment": 5.5},
     "record 3: comment is a number, not text"),
    ({"object": "ruling", "oracle_id": ORACLE.format(1), "comment": None}, "record 4: a ruling without text"),
]
MTGJSON_CARD = {"name": "Json Card", "identifiers": {"scryfallOracleId": ORACLE.format(1)}}
MTGJSON = [
    (7, "TST card: not an object"),
    (dict(MTGJSON_CARD, identifiers={"scryfallOracleId": 5}),
     "TST card: identifiers.scryfallOracleId is a number, not text"),
    (dict(MTGJSON_CARD, side="ab"), "TST card: side is not a letter"),
    (dict(MTGJSON_CARD, foreignData=[[]]), "TST card: foreignData[0] is a list, not an object"),
    (dict(MTGJSON_CARD, foreignData=[{"name": 1}]), "TST card: foreignData[0].name is a number, not text"),
    (dict(MTGJSON_CARD, rulings=[{"text": ""}]), "TST card: a ruling without text"),
    (dict(MTGJSON_CARD, identifiers={}), "TST Json Card: no Scryfall oracle id or no name"),
]


def notes(note):
    """The message ids of a note and of the notes among its values."""
    yield note.message
    for value in note.values.values():
        if hasattr(value, "values"):
            yield from notes(value)


@pytest.fixture(scope="module")
def reports(bundled_catalog_path, tmp_path_factory):
    folder = tmp_path_factory.mktemp("warnings")
    catalog = folder / "catalog.sqlite3"
    shutil.copy(bundled_catalog_path, catalog)
    files = {"cards.json": [r for r, _ in CARDS], "rulings.json": [r for r, _ in RULINGS],
             "TST.json": {"data": {"code": "TST", "cards": [r for r, _ in MTGJSON]}}}
    for name, data in files.items():
        (folder / name).write_text(json.dumps(data))
    return import_files(catalog, [folder / name for name in files], name_index=False)


def test_each_skipped_record_is_said_with_what_is_wrong_with_it(reports):
    said_in_english = [str(w) for report in reports for w in report.warnings]
    assert said_in_english == [w for _, w in CARDS + MTGJSON + RULINGS if w]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_each_skipped_record_is_said_in_every_language(reports, lang):
    msg, catalog = messages(lang), _translations(lang)._catalog
    for report in reports:
        for warning in report.warnings:
            missing = [m for m in notes(warning) if m not in catalog]
            assert not missing, f"no {lang} message for {missing}"
            assert said(warning, msg) != str(warning)
        assert said(report.warnings[0], msg) in summary_text(report, msg)


def test_an_import_summary_says_the_first_skipped_record_in_french(reports):
    cards = reports[0]
    assert summary_text(cards, messages("fr")).endswith(
        "; 7 ignorés (le premier : enregistrement 2 : pas un objet carte)")
    assert said(cards.warnings[1], messages("de")) == "Datensatz 3: name: ein Objekt statt Text"
    assert said(cards.warnings[2], messages("ja")) == "レコード 4: card_faces[0] はオブジェクトではなく数値です"
