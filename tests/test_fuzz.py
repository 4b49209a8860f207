"""Bounded fuzzing of every parser that reads what users or files bring: any input gives a result or
the project's own error (DataImportError, ScenarioError), never another exception."""
import gzip
import json
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.catalog.build import connect_for_writing
from bot.catalog.comprehensive_rules import parse_rules, read_text
from bot.catalog.documents import parse_document
from bot.catalog.errors import DataImportError
from bot.catalog.importer import classify
from bot.catalog.mtgjson import import_mtgjson
from bot.catalog.scryfall import import_cards, import_rulings
from bot.config import DATA_DIR
from bot.explore import decks
from bot.explore.choices import ScenarioError
from bot.explore.scenario import load, run
from bot.i18n import messages

FUZZ = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=6)
UUID = st.sampled_from(["00000000-0000-4000-8000-000000000001", "00000000-0000-4000-8000-000000000002"])


def sometimes(valid):
    """Mostly a value of the right type, sometimes anything at all."""
    return st.one_of(valid, valid, JSON)


FACE = st.fixed_dictionaries({}, optional={
    "name": sometimes(st.text(max_size=12)), "printed_name": sometimes(st.text(max_size=12)),
    "type_line": sometimes(st.text(max_size=12)), "oracle_text": sometimes(st.text(max_size=20)),
    "mana_cost": sometimes(st.just("{G}")), "oracle_id": sometimes(UUID),
    "image_uris": sometimes(st.fixed_dictionaries({"normal": sometimes(st.just("https://img/x.jpg"))}))})
SCRYFALL_CARD = st.fixed_dictionaries({"object": sometimes(st.just("card"))}, optional={
    "oracle_id": sometimes(UUID), "name": sometimes(st.text(min_size=1, max_size=12)),
    "lang": sometimes(st.sampled_from(["en", "fr", "ja", "ph"])), "layout": sometimes(st.sampled_from(["normal", "token"])),
    "type_line": sometimes(st.text(max_size=12)), "oracle_text": sometimes(st.text(max_size=20)),
    "mana_cost": sometimes(st.just("{1}{U}")), "printed_name": sometimes(st.text(max_size=12)),
    "card_faces": sometimes(st.lists(sometimes(FACE), max_size=3)), "promo_types": sometimes(st.lists(JSON, max_size=2)),
    "image_uris": sometimes(st.fixed_dictionaries({"normal": sometimes(st.just("https://img/x.jpg"))})),
    "set_type": sometimes(st.just("expansion"))})
SCRYFALL_RULING = st.fixed_dictionaries({"object": sometimes(st.just("ruling"))}, optional={
    "oracle_id": sometimes(UUID), "comment": sometimes(st.text(max_size=30)),
    "published_at": sometimes(st.sampled_from(["2020-01-01", "yesterday", ""])),
    "source": sometimes(st.sampled_from(["wotc", "scryfall"]))})
MTGJSON_CARD = st.fixed_dictionaries({"name": sometimes(st.text(min_size=1, max_size=12))}, optional={
    "identifiers": sometimes(st.fixed_dictionaries({"scryfallOracleId": sometimes(UUID)})),
    "faceName": sometimes(st.text(max_size=12)), "side": sometimes(st.sampled_from(["a", "b", "", "ab"])),
    "layout": sometimes(st.just("normal")), "type": sometimes(st.text(max_size=12)),
    "text": sometimes(st.text(max_size=20)), "manaCost": sometimes(st.just("{G}")),
    "foreignData": sometimes(st.lists(sometimes(st.fixed_dictionaries({
        "language": sometimes(st.sampled_from(["French", "Japanese", "Klingon"])),
        "name": sometimes(st.text(max_size=12)), "faceName": sometimes(st.text(max_size=12))})), max_size=3)),
    "rulings": sometimes(st.lists(sometimes(st.fixed_dictionaries({
        "text": sometimes(st.text(max_size=20)), "date": sometimes(st.just("2020-01-01"))})), max_size=2))})


@pytest.fixture(scope="module")
def catalog_connection():
    con = connect_for_writing(Path(":memory:"))
    con.execute("INSERT INTO cards(oracle_id, name, layout, type_line, oracle_text, mana_cost, kind)"
                " VALUES ('00000000-0000-4000-8000-000000000001', 'Known', 'normal', '', '', '', 'card')")
    yield con
    con.close()


def written(data: bytes, name: str = "data.json") -> Path:
    folder = Path(tempfile.mkdtemp(prefix="wayfinder-fuzz-"))
    path = folder / name
    path.write_bytes(data)
    return path


def imports_or_refuses(importer, con: sqlite3.Connection, path: Path) -> None:
    try:
        importer(con, path)
    except DataImportError:
        pass


@FUZZ
@given(records=st.lists(SCRYFALL_CARD | JSON, max_size=5), lines=st.booleans(), gz=st.booleans())
def test_scryfall_card_records(catalog_connection, records, lines, gz):
    raw = ("\n".join(json.dumps(r) for r in records) if lines else json.dumps(records)).encode()
    imports_or_refuses(import_cards, catalog_connection, written(gzip.compress(raw) if gz else raw))


@FUZZ
@given(records=st.lists(SCRYFALL_RULING | JSON, max_size=5), cut=st.integers(0, 400))
def test_scryfall_ruling_records(catalog_connection, records, cut):
    raw = json.dumps(records).encode()
    imports_or_refuses(import_rulings, catalog_connection, written(raw[:cut] if cut < 400 else raw))


@FUZZ
@given(cards=st.lists(MTGJSON_CARD | JSON, max_size=4), all_printings=st.booleans(), extra=JSON)
def test_mtgjson_records(catalog_connection, cards, all_printings, extra):
    data = {"meta": {"version": "5"}, "data": {"XLN": {"cards": cards, "x": extra}} if all_printings
            else {"code": "XLN", "cards": cards, "x": extra}}
    imports_or_refuses(import_mtgjson, catalog_connection, written(json.dumps(data).encode(), "XLN.json"))


@FUZZ
@given(data=st.binary(max_size=600), compressed=st.sampled_from([b"", b"\x1f\x8b", b"\x1f\x8b\x08\x00"]))
def test_any_bytes_are_classified_or_refused(data, compressed):
    try:
        classify(written(compressed + data))
    except DataImportError:
        pass


SEED_LINES = [line for path in sorted((DATA_DIR / "seeds").glob("*.txt"))
              for line in path.read_text(encoding="utf-8").splitlines()[:40]]


@FUZZ
@given(lines=st.lists(st.sampled_from(SEED_LINES) | st.text(max_size=40), max_size=20),
       name=st.sampled_from(["glowcap-lantern.en.txt", "x.fr.txt", "x.txt", "x.zz.txt"]))
def test_ruling_documents(lines, name):
    try:
        parse_document(Path(name), "\n".join(lines))
    except DataImportError:
        pass


RULE_LINES = read_text(DATA_DIR / "rules" / "MagicCompRules-20260116.txt.gz").splitlines()[:3000]


@FUZZ
@given(lines=st.lists(st.sampled_from(RULE_LINES) | st.text(max_size=30), max_size=60), header=st.booleans(),
       encoded=st.binary(max_size=40))
def test_comprehensive_rules(lines, header, encoded):
    text = ("These rules are effective as of January 16, 2026.\n" if header else "") + "\n".join(lines)
    try:
        parse_rules(text)
    except DataImportError:
        pass
    try:
        parse_rules(read_text(written(text.encode() + encoded, "MagicCompRules.txt")))
    except DataImportError:
        pass


@pytest.fixture(scope="module")
def english():
    return messages("en")


@FUZZ
@given(lines=st.lists(st.one_of(
    st.text(max_size=30),
    st.builds(lambda n, name: f"{n} {name}", st.integers(-5, 10**12),
              st.sampled_from(["Forest", "Jadelight Ranger", "Guidevoie de Tishana", "Opt (XLN) 65", "zzqq"])),
    st.sampled_from(["Deck", "Sideboard", "", "// comment", "SB: 2 Opt", "Companion"])), max_size=15),
    lang=st.sampled_from([None, "fr", "ja"]))
def test_decklists(bundled_matcher, english, lines, lang):
    deck = decks.parse("\n".join(lines), bundled_matcher, english, "fuzz", lang)
    assert isinstance(deck.errors, list)


CARDS = st.sampled_from(["Forest", "Opt", "Jadelight Ranger", "Wildgrowth Walker", "Nicanzil, Current Conductor",
                         "Topography Tracker", "Twists and Turns", "Map", "no such card"])
SCENARIO = st.fixed_dictionaries({}, optional={
    "library": sometimes(st.lists(CARDS, max_size=6)), "hand": sometimes(st.lists(CARDS, max_size=3)),
    "graveyard": sometimes(st.lists(CARDS, max_size=3)), "exile": sometimes(st.lists(CARDS, max_size=2)),
    "battlefield": sometimes(st.lists(sometimes(st.fixed_dictionaries(
        {"id": sometimes(st.sampled_from(["a", "b"])), "card": sometimes(CARDS)},
        optional={"counters": sometimes(st.integers(-3, 5)), "attached_to": sometimes(st.sampled_from(["a", "b"])),
                  "controller": sometimes(st.sampled_from(["you", "opponent"])), "tapped": JSON,
                  "creature": JSON})), max_size=3)),
    "life": sometimes(st.integers(-5, 40)),
    "action": sometimes(st.one_of(
        st.fixed_dictionaries({"explore": sometimes(st.sampled_from(["a", "b"]))},
                              optional={"times": sometimes(st.integers(-1, 4))}),
        st.fixed_dictionaries({"enter": sometimes(CARDS), "id": sometimes(st.just("n"))},
                              optional={"x": sometimes(st.integers(-1, 3)), "target": sometimes(st.just("a"))}),
        st.fixed_dictionaries({"cast": sometimes(CARDS)}, optional={"target": sometimes(CARDS)}),
        st.fixed_dictionaries({"attack": sometimes(st.sampled_from(["a", "b"]))}),
        st.fixed_dictionaries({"activate": sometimes(st.sampled_from(["a", "b"]))},
                              optional={"target": sometimes(st.just("b"))}))),
    "leaves_before_resolution": sometimes(st.lists(sometimes(st.sampled_from(["a", "b"])), max_size=2)),
    "choices": sometimes(st.lists(st.sampled_from(["keep", "graveyard", "top", "bottom", "no", "Forest"]) | JSON,
                                  max_size=4)),
    "deck": sometimes(st.just("ixalan")), "seed": sometimes(st.integers(0, 2**63)),
    "opponent": JSON, "active": sometimes(st.sampled_from(["you", "opponent"]))})


@FUZZ
@given(scenario=SCENARIO | JSON, raw=st.binary(max_size=30))
def test_scenarios(bundled_services, scenario, raw):
    for data in (json.dumps(scenario).encode(), json.dumps(scenario).encode()[:-1] + raw):
        try:
            run(load(written(data, "scenario.json")), bundled_services.card_facts)
        except ScenarioError:
            pass
