"""Scryfall card files in every layout give the same catalog: one record a line as Scryfall writes
its bulk files (read line by line with a typed decoder), or anything else JSON allows (read by the
general streaming parser), or a file that starts in one layout and goes on in another."""
import gzip
import itertools
import json
import re
import sqlite3
import zlib

import pytest

from bot.catalog import Catalog, DataImportError
from bot.catalog import streams
from bot.catalog.importer import import_files
from tests.helpers import SHARED_DATA, needs_shared

ALL_CARDS = SHARED_DATA / "scryfall" / "all-cards-derived-2022.json.gz"
CARDS_PAGE = SHARED_DATA / "scryfall" / "cards-page-2019-06.json"

CARD = {"object": "card", "oracle_id": "00000000-0000-4000-8000-000000000001", "name": "Test Explorer",
        "lang": "en", "layout": "normal", "type_line": "Creature — Merfolk Scout", "oracle_text": "",
        "mana_cost": "{G}", "set": "xln", "image_uris": {"small": "s.jpg", "normal": "n.jpg"}}


def scryfall_layout(objects) -> str:
    """As Scryfall writes its bulk files: "[", one object a line, a comma opening each line after
    the first, "]"."""
    return "[\n" + "\n".join(("," if i else "") + json.dumps(o, ensure_ascii=False)
                             for i, o in enumerate(objects)) + "\n]\n"


LAYOUTS = {
    "scryfall": scryfall_layout,
    "commas at the ends of lines": lambda objects: "[\n" + ",\n".join(json.dumps(o) for o in objects) + "\n]",
    "one line": lambda objects: json.dumps(objects, ensure_ascii=False),
    "indented": lambda objects: json.dumps(objects, indent=2),
    "json lines": lambda objects: "\n".join(json.dumps(o) for o in objects) + "\n",
}
FRAMED = {"scryfall", "commas at the ends of lines", "json lines"}


def tables(path, names=("cards", "names", "printed_texts")):
    con = sqlite3.connect(path)
    try:
        return {table: con.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall() for table in names}
    finally:
        con.close()


def imported(tmp_path, name, text, gz=False):
    """(tables, counts, warnings) of a new catalog with the file."""
    data = text.encode()
    path = tmp_path / (name.replace(" ", "-") + (".json.gz" if gz else ".json"))
    path.write_bytes(gzip.compress(data, compresslevel=1) if gz else data)
    catalog = tmp_path / (path.name + ".sqlite3")
    [report] = import_files(catalog, [path], name_index=False)
    return tables(catalog), report.counts, report.warnings


@pytest.fixture
def general_parser_refused(monkeypatch):
    """The general parsers (of arrays, of JSON lines) fail the test if they are asked to read a record."""
    def refuse(*args, **kwargs):
        raise AssertionError("read by the general parser")
    monkeypatch.setattr(streams.ijson, "items", refuse)
    monkeypatch.setattr(streams.json, "loads", refuse)


def real_cut(count):
    """The first ``count`` objects of the real all_cards file (cards in 11 languages, faces)."""
    with gzip.open(ALL_CARDS, "rt", encoding="utf-8") as fh:
        lines = [line.strip().lstrip(",") for line in itertools.islice(fh, 1, count + 1)]
    return [json.loads(line) for line in lines]


@needs_shared
def test_real_cards_give_the_same_catalog_in_every_layout(tmp_path):
    objects = real_cut(6000)
    assert any(o.get("card_faces") for o in objects) and len({o["lang"] for o in objects}) >= 11
    results = {name: imported(tmp_path, name, write(objects), gz=True) for name, write in LAYOUTS.items()}
    expected = results["one line"]
    assert expected[1]["card objects"] == 6000 and not expected[2]
    for name, result in results.items():
        assert result == expected, name
    catalog = Catalog(tmp_path / "scryfall.json.gz.sqlite3")
    card = catalog.card_by_english_name(objects[0]["name"])
    assert card.oracle_id == objects[0]["oracle_id"]
    assert objects[1]["printed_name"] in catalog.names(card.oracle_id)[objects[1]["lang"]]


@needs_shared
def test_real_printed_texts_and_images_come_the_same_in_both_readers(tmp_path):
    objects = json.loads(CARDS_PAGE.read_text(encoding="utf-8"))["data"]
    framed = imported(tmp_path, "scryfall", scryfall_layout(objects))
    assert framed == imported(tmp_path, "one line", json.dumps(objects))
    cards, printed = framed[0]["cards"], framed[0]["printed_texts"]
    assert printed and {row[1] for row in printed} >= {"fr", "de", "it", "es", "ja"}
    assert len(cards) == len({o["oracle_id"] for o in objects}) and all(row[7].startswith("https://") for row in cards)


@pytest.mark.parametrize("layout", sorted(FRAMED))
def test_a_file_of_one_record_a_line_is_read_without_the_general_parser(tmp_path, general_parser_refused, layout):
    objects = [dict(CARD, oracle_id=f"00000000-0000-4000-8000-{i:012d}", name=f"Card {i}") for i in range(50)]
    cards = imported(tmp_path, layout, LAYOUTS[layout](objects))[0]["cards"]
    assert [row[1] for row in cards] == [f"Card {i}" for i in range(50)]
    assert {row[7] for row in cards} == {"n.jpg"}


MALFORMED = [
    dict(CARD, name={"en": "Test Explorer"}),
    dict(CARD, oracle_id=["00000000-0000-4000-8000-000000000002"], name="Listed"),
    dict(CARD, oracle_id="00000000-0000-4000-8000-000000000003", name="Faced", card_faces="Front // Back"),
    dict(CARD, oracle_id="00000000-0000-4000-8000-000000000004", name="Printed", lang="fr", printed_text=7),
    dict(CARD, oracle_id="00000000-0000-4000-8000-000000000005", name="Pictured", image_uris={"normal": 1}),
    dict(CARD, oracle_id="00000000-0000-4000-8000-000000000006", name="Two Faces",
         card_faces=[{"name": "Front"}, {"name": ["Back"]}]),
    dict(CARD, object="token"),
    [CARD],
    "Test Explorer",
    dict(CARD, oracle_id=None),
    dict(CARD, oracle_id="00000000-0000-4000-8000-000000000007", name="Good Card"),
]


def test_malformed_records_are_one_warning_each_whichever_way_the_file_is_read(tmp_path):
    results = {name: imported(tmp_path, name, write(MALFORMED)) for name, write in LAYOUTS.items()}
    tables_, counts, warnings = results["one line"]
    assert [row[1] for row in tables_["cards"]] == ["Good Card"]
    assert counts["card objects"] == 1
    assert warnings == ["record 1: name is an object, not text",
                        "record 2: oracle_id is a list, not text",
                        "record 3: card_faces is text, not a list",
                        "record 4: printed_text is a number, not text",
                        "record 5: image_uris.normal is a number, not text",
                        "record 6: card_faces[1].name is a list, not text",
                        "record 7: not a card object",
                        "record 8: not a card object",
                        "record 9: not a card object",
                        "record 10: no oracle_id or name"]
    for name, result in results.items():
        assert result == results["one line"], name


@pytest.mark.parametrize("change", ["an object over several lines", "a line too long to be one record"])
def test_a_file_that_changes_layout_half_way_is_read_whole_and_once(tmp_path, change):
    objects = [dict(CARD, oracle_id=f"00000000-0000-4000-8000-{i:012d}", name=f"Card {i}") for i in range(300)]
    lines = scryfall_layout(objects).splitlines()
    if change == "an object over several lines":
        lines[151] = "," + json.dumps(objects[150], indent=1)
    else:
        lines[151] += " " * (streams.MAX_LINE + 10)
    changed = imported(tmp_path, "changed", "\n".join(lines), gz=True)
    assert changed[1]["card objects"] == 300
    assert changed == imported(tmp_path, "one line", json.dumps(objects))


@pytest.mark.parametrize("layout", sorted(set(LAYOUTS) - {"json lines"}))
def test_a_record_the_general_parser_refuses_refuses_the_file_whichever_way_it_is_read(tmp_path, layout):
    # NaN is not JSON; here it follows a field of the wrong type, after records already read
    objects = [dict(CARD, oracle_id=f"00000000-0000-4000-8000-{i:012d}", name=f"Card {i}") for i in range(20)]
    objects[12] = dict(objects[12], name=5, set=float("nan"))
    path = tmp_path / "nan.json"
    path.write_text(LAYOUTS[layout](objects))
    with pytest.raises(DataImportError) as info:
        import_files(tmp_path / "catalog.sqlite3", [path], name_index=False)
    assert "nan.json" in str(info.value) and "near byte" in str(info.value)


@pytest.mark.parametrize("cut", ["inside a record", "after a whole line", "before the closing bracket"])
def test_a_cut_file_of_one_record_a_line_is_refused_whole(tmp_path, cut):
    objects = [dict(CARD, oracle_id=f"00000000-0000-4000-8000-{i:012d}", name=f"Card {i}") for i in range(500)]
    text = scryfall_layout(objects)
    end = {"inside a record": len(text) // 2, "after a whole line": text.index("\n", len(text) // 2) + 1,
           "before the closing bracket": text.rindex("]")}[cut]
    path = tmp_path / "cut.json"
    path.write_text(text[:end])
    catalog = tmp_path / "catalog.sqlite3"
    with pytest.raises(DataImportError) as info:
        import_files(catalog, [path], name_index=False)
    assert "cut.json" in str(info.value) and "near byte" in str(info.value)
    assert not catalog.exists()


def test_a_cut_gzip_file_of_one_record_a_line_says_how_far_it_was_read(tmp_path):
    objects = [dict(CARD, oracle_id=f"00000000-0000-4000-8000-{i:012d}", name=f"Card {i}",
                    oracle_text=f"Card {i} explores. " * 3) for i in range(2000)]
    data = gzip.compress(scryfall_layout(objects).encode(), compresslevel=1)
    path = tmp_path / "cut.json.gz"
    path.write_bytes(data[:6000])
    with pytest.raises(DataImportError) as info:
        import_files(tmp_path / "catalog.sqlite3", [path], name_index=False)
    assert "truncated or corrupt" in str(info.value)
    record, offset = re.search(r"after record ([\d,]+), near byte ([\d,]+)", str(info.value)).groups()
    assert int(record.replace(",", "")) > 10
    assert int(offset.replace(",", "")) == len(zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data[:6000]))


RULING = {"object": "ruling", "oracle_id": CARD["oracle_id"], "source": "wotc", "published_at": "2020-01-01",
          "comment": "A ruling."}
RULINGS_MALFORMED = [
    RULING,
    dict(RULING, comment=None),
    dict(RULING, comment=["A ruling."]),
    {k: v for k, v in RULING.items() if k != "comment"},
    dict(RULING, object="card"),
    dict(RULING, published_at=20200101),
    dict(RULING, oracle_id="00000000-0000-4000-8000-000000000009"),
    "A ruling.",
    dict(RULING, source="somebody", comment="Another ruling."),
]


def rulings_imported(tmp_path, name, text):
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps([CARD]))
    path = tmp_path / (name.replace(" ", "-") + "-rulings.json")
    path.write_text(text)
    catalog = tmp_path / (path.name + ".sqlite3")
    report = import_files(catalog, [cards, path], name_index=False)[1]
    con = sqlite3.connect(catalog)
    try:
        rows = con.execute("SELECT oracle_id, published_at, source, lang, text, position FROM rulings"
                           " ORDER BY id").fetchall()
    finally:
        con.close()
    return rows, report.counts, report.warnings


def test_malformed_rulings_are_one_warning_each_whichever_way_the_file_is_read(tmp_path):
    results = {name: rulings_imported(tmp_path, name, write(RULINGS_MALFORMED)) for name, write in LAYOUTS.items()}
    rows, counts, warnings = results["indented"]
    assert [row[4] for row in rows] == ["A ruling.", "Another ruling."]
    assert [row[2] for row in rows] == ["wotc", "unknown"]
    assert warnings == ["record 2: a ruling without text",
                        "record 3: comment is a list, not text",
                        "record 4: not a ruling object",
                        "record 5: not a ruling object",
                        "record 6: published_at is a number, not text",
                        "record 7: ruling for unknown card 00000000-0000-4000-8000-000000000009",
                        "record 8: not a ruling object"]
    for name, result in results.items():
        assert result == results["indented"], name


@needs_shared
def test_real_rulings_give_the_same_catalog_in_every_layout(tmp_path):
    with gzip.open(SHARED_DATA / "scryfall" / "rulings-derived-2022.json.gz", "rt", encoding="utf-8") as fh:
        rulings = json.load(fh)[:3000]
    objects = real_cut(8000)
    cards = tmp_path / "cards.json"
    cards.write_text(scryfall_layout(objects))
    results = {}
    for name, write in LAYOUTS.items():
        path = tmp_path / (name.replace(" ", "-") + "-rulings.json")
        path.write_text(write(rulings))
        catalog = tmp_path / (path.name + ".sqlite3")
        import_files(catalog, [cards, path], name_index=False)
        results[name] = tables(catalog, ("rulings", "ruling_texts", "ruling_sources"))
    assert len(results["indented"]["rulings"]) > 1000
    for name, result in results.items():
        assert result == results["indented"], name


def imported_bytes(tmp_path, name, data):
    """(tables, counts, warnings) of a new catalog with the file, or the line that refused it."""
    path = tmp_path / (name.replace(" ", "-") + ".json")
    path.write_bytes(data)
    catalog = tmp_path / (path.name + ".sqlite3")
    try:
        [report] = import_files(catalog, [path], name_index=False)
    except DataImportError as exc:
        assert not catalog.exists()
        return str(exc).replace(str(path), "FILE")
    return tables(catalog), report.counts, report.warnings


def every_layout(tmp_path, objects, edit=lambda text: text):
    return {name: imported_bytes(tmp_path, name, edit(write(objects).encode())) for name, write in LAYOUTS.items()}


SEVERAL = [dict(CARD, oracle_id=f"00000000-0000-4000-8000-{i:012d}", name=f"Card {i}") for i in range(5)]


def test_a_byte_order_mark_before_the_records_is_read_past_in_every_layout(tmp_path):
    results = every_layout(tmp_path, SEVERAL, lambda data: b"\xef\xbb\xbf" + data)
    expected = imported(tmp_path, "without", json.dumps(SEVERAL))
    assert expected[1]["card objects"] == 5
    for name, result in results.items():
        assert result == expected, name


def test_numbers_beyond_64_bits_are_read_in_every_layout(tmp_path):
    # in a field the catalog does not read they change nothing; in one it reads, the record is one warning
    objects = [dict(card, x=10 ** 30, y="1e400") for card in SEVERAL] + [dict(CARD, name=-(10 ** 25))]
    results = every_layout(tmp_path, objects, lambda data: data.replace(b'"1e400"', b"1e400"))
    without = imported(tmp_path, "without", json.dumps(SEVERAL))
    for name, result in results.items():
        assert result[0] == without[0], name
        assert result[1]["card objects"] == 5 and result[2] == ["record 6: name is a number, not text"], name


def test_invalid_utf8_in_a_field_the_catalog_does_not_read_refuses_the_file_in_every_layout(tmp_path):
    objects = [dict(card, x="MARK") for card in SEVERAL]
    results = every_layout(tmp_path, objects, lambda data: data.replace(b"MARK", b"\xff", 1))
    for name, refused in results.items():
        assert isinstance(refused, str), name
        assert refused.startswith("FILE (after record ") and "truncated or corrupt file:" in refused, name
        assert "\\x" not in refused and "\n" not in refused, name
    # the line-by-line reader and the general parser say the same of the same file
    assert results["scryfall"].split("): ")[1] == results["one line"].split("): ")[1]


def test_a_field_the_catalog_does_not_read_nested_thousands_deep_is_read_past_in_every_layout(tmp_path):
    objects = [dict(card, x="DEEP") for card in SEVERAL]
    deep = b"[" * 3000 + b"{}" + b"]" * 3000
    results = every_layout(tmp_path, objects, lambda data: data.replace(b'"DEEP"', deep))
    expected = imported(tmp_path, "without", json.dumps(SEVERAL))
    for name, result in results.items():
        assert result == expected, name
