"""The card-name matcher on the bundled catalog (seed names) and on the full real catalog."""
import mmap

import pytest

from bot.matching import Matcher, NameIndex
from tests.helpers import SHARED_DATA, needs_shared


@pytest.mark.parametrize("typed, english", [
    ("defossilizare", "Defossilize"),          # typo in the Italian name
    ("Defossilizzare", "Defossilize"),
    ("lanterne calotte", "Glowcap Lantern"),   # partial French words
    ("agente rainha", "Queen's Agent"),        # words left out
    ("agente da rainha", "Queen's Agent"),
    ("guidevoie", "Tishana's Wayfinder"),      # the start of a French name
    ("nicanzil", "Nicanzil, Current Conductor"),
    ("NICANZIL CURRENT CONDUCTOR", "Nicanzil, Current Conductor"),
    ("Écuyère des quêteurs", "Seekers' Squire"),
    ("ecuyere des queteurs", "Seekers' Squire"),  # accents left out
    ("ティシャーナの道探し", "Tishana's Wayfinder"),
    ("Проводница Тишаны", "Tishana's Wayfinder"),
    ("提莎娜的探路人", "Tishana's Wayfinder"),
    ("Ｔｉｓｈａｎａ’ｓ　Ｗａｙｆｉｎｄｅｒ", "Tishana's Wayfinder"),  # full width
    ("  tishanas    wayfinder ", "Tishana's Wayfinder"),
    ("Mycoid Maze", "Twists and Turns // Mycoid Maze"),   # one face
    ("kazandu valley", "Kazandu Mammoth // Kazandu Valley"),
    ("jadelite rangr", "Jadelight Ranger"),    # two typos
    ("Tishana\u200b's Wayfinder", "Tishana's Wayfinder"),  # invisible character
])
def test_seed_and_bundled_names_resolve(bundled_matcher, typed, english):
    result = bundled_matcher.resolve(typed)
    assert result.status == "one", (typed, result.candidates[:3])
    assert result.best.english_name == english


@pytest.mark.parametrize("typed, reason", [("", "empty"), ("   ", "empty"), ("?!…", "no-letters"),
                                           ("🙂🙂", "no-letters"), ("\x00\x07", "empty")])
def test_empty_and_letterless_input_is_a_clear_none(bundled_matcher, typed, reason):
    result = bundled_matcher.resolve(typed)
    assert result.status == "none" and result.reason == reason


def test_unknown_name_gives_none_with_suggestions(bundled_matcher):
    result = bundled_matcher.resolve("Tishana Pathfinder Supreme Deluxe")
    assert result.status in ("none", "one")
    result = bundled_matcher.resolve("zzqxv")
    assert result.status == "none" and result.reason == "no-match"


def test_over_long_input_is_cut_and_said_so(bundled_matcher):
    result = bundled_matcher.resolve("Queen's Agent " + "x" * 500)
    assert result.truncated and len(result.query) == 200


def test_autocomplete_labels_show_the_typed_language_and_english(bundled_matcher):
    choices = bundled_matcher.autocomplete("agente da", prefer_lang="pt")
    assert "Agente da Rainha (Queen's Agent)" in [c.label() for c in choices]
    choices = bundled_matcher.autocomplete("tishana", prefer_lang="fr")
    labels = [c.label() for c in choices]
    assert "Guidevoie de Tishana (Tishana's Wayfinder)" in labels or "Tishana's Wayfinder" in labels
    assert all(len(c.label()) <= 100 for c in choices)
    assert len(choices) <= 25
    assert len({c.oracle_id for c in choices}) == len(choices)


def test_autocomplete_prefers_the_readers_language_on_a_tie(bundled_matcher):
    choices = bundled_matcher.autocomplete("guidevoie", prefer_lang="fr")
    assert choices[0].label() == "Guidevoie de Tishana (Tishana's Wayfinder)"


def test_ranking_exact_before_prefix_and_real_cards_before_tokens():
    cards = {"a": ("Map", "card"), "b": ("Mapmaker", "card"), "c": ("Map", "token")}
    rows = [("a", "en", "Map", -1, "map", 1), ("b", "en", "Mapmaker", -1, "mapmaker", 1),
            ("c", "en", "Map", -1, "map", 1)]
    matcher = Matcher(NameIndex.from_rows(rows, cards))
    result = matcher.resolve("map")
    assert [c.oracle_id for c in result.candidates] == ["a", "c", "b"]
    assert result.status == "one"
    assert [c.oracle_id for c in matcher.autocomplete("map")] == ["a", "c", "b"]


def test_the_order_is_deterministic(bundled_matcher):
    first = [c.oracle_id for c in bundled_matcher.autocomplete("i")]
    assert first == [c.oracle_id for c in bundled_matcher.autocomplete("i")]


def test_an_import_leaves_the_index_of_the_new_names_and_resolve_finds_them(tmp_path):
    from bot.catalog import Catalog
    from bot.catalog.bundled import build_bundled
    from bot.catalog.importer import import_files
    path = tmp_path / "catalog.sqlite3"
    build_bundled(path)
    before = Catalog(path)
    assert Matcher.from_catalog(before).resolve("Brinewatch Mystic").status == "none"
    first = NameIndex.load(before).digest
    before.close()
    new_card = tmp_path / "cards.jsonl"
    new_card.write_text('{"object": "card", "oracle_id": "0000aaaa-0000-4000-8000-00000000beef", "name":'
                        ' "Brinewatch Mystic", "lang": "en", "layout": "normal", "type_line": "Creature"}\n',
                        encoding="utf-8")
    import_files(path, [new_card])
    after = Catalog(path)
    index = NameIndex.load(after)
    assert index.digest != first
    assert isinstance(index.buffer, mmap.mmap)  # the importer's file, mapped: nothing rebuilt
    result = Matcher(index).resolve("brinewatch mystik")
    assert result.status == "one" and result.best.english_name == "Brinewatch Mystic"
    # one index file beside the catalog: the one its contents name
    assert [p.name for p in tmp_path.glob("catalog.sqlite3.names*")] == [NameIndex.file_path(path, index.digest).name]
    after.close()


def test_a_catalog_without_its_index_file_still_answers(tmp_path, bundled_catalog_path):
    import shutil
    from bot.catalog import Catalog
    copy = tmp_path / "copied.sqlite3"
    shutil.copy(bundled_catalog_path, copy)   # the index file left behind
    catalog = Catalog(copy)
    assert Matcher.from_catalog(catalog).resolve("Jadelight Ranger").best.english_name == "Jadelight Ranger"
    catalog.close()


@needs_shared
def test_public_queries_are_answered_right(full_matcher):
    rows = [line.split("\t") for line in (SHARED_DATA / "queries" / "names-public.tsv").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    by_kind = {}
    for kind, query, oracle_id, _ in rows:
        best = full_matcher.resolve(query).best
        by_kind.setdefault(kind, []).append(best is not None and best.oracle_id == oracle_id)
    overall = sum(sum(v) for v in by_kind.values()) / len(rows)
    print("\n" + "\n".join(f"{k:14} {sum(v) / len(v):.2%}" for k, v in sorted(by_kind.items())))
    assert overall >= 0.99
    assert all(sum(v) / len(v) >= 0.95 for v in by_kind.values())


@needs_shared
def test_names_with_two_spellings_both_resolve(full_matcher):
    assert full_matcher.resolve("Île").best.english_name == "Island"
    assert full_matcher.resolve("ile").best.english_name == "Island"


@needs_shared
def test_autocomplete_of_a_common_beginning_keeps_the_readers_name_and_every_word(full_matcher):
    # hundreds of names start with "paladin": the French name of Paladin Class has it as its last word
    assert full_matcher.autocomplete("paladin", prefer_lang="fr")[0].label() == "Classe : paladin (Paladin Class)"
    # "bo" and "del" each start thousands of names; together with "c", a few
    assert full_matcher.autocomplete("bo del c")[0].label() == "Boa del Cieno (Marsh Boa)"
    # a typo in a Spanish name, for a French reader: the card under its French name
    assert full_matcher.autocomplete("artusta espontanea", prefer_lang="fr")[0].label() == \
        "Artiste spontanée (Spontaneous Artist)"


@pytest.mark.parametrize("typed", ["jadelite rangr", "defossilizare", "ecuyere des queteurs", "tishanas wayfnder",
                                   "kazandu valey"])
def test_typos_resolve_the_same_when_the_names_are_too_many_to_group_in_memory(bundled_catalog, bundled_matcher,
                                                                                monkeypatch, typed):
    from bot.matching import index
    monkeypatch.setattr(index, "BUCKETS_IN_MEMORY", 0)   # as for a catalog ten times the real one: SQLite groups
    grouped_by_sqlite = Matcher(NameIndex.from_catalog(bundled_catalog))
    spaceless = typed.replace(" ", "")
    shapes = [sorted(zip(ids.tolist(), texts)) for ids, texts in grouped_by_sqlite.index.similar_shape_keys(spaceless)]
    assert shapes == [sorted(zip(ids.tolist(), texts))
                      for ids, texts in bundled_matcher.index.similar_shape_keys(spaceless)]
    assert grouped_by_sqlite.resolve(typed).best.oracle_id == bundled_matcher.resolve(typed).best.oracle_id


@pytest.mark.parametrize("chunk", [7, 20_000])
def test_the_index_is_the_same_whether_names_are_sorted_in_memory_or_by_sqlite(bundled_catalog_path, tmp_path,
                                                                                monkeypatch, chunk):
    import shutil
    import sqlite3
    from bot.catalog import Catalog
    from bot.matching import index
    path = shutil.copy(bundled_catalog_path, tmp_path / "catalog.sqlite3")
    con = sqlite3.connect(path)   # a name whose card is gone: no entry, either way
    con.execute("INSERT INTO names(oracle_id, lang, name, face, folded) VALUES ('gone', 'en', 'Gone', -1, 'gone')")
    con.commit()
    con.close()
    catalog = Catalog(path)
    (named,) = catalog.query("SELECT count(*) FROM names JOIN cards USING (oracle_id) WHERE folded != ''")[0]
    monkeypatch.setattr(index, "CHUNK", chunk)   # small chunks: every table is written in many parts
    in_memory = NameIndex.from_catalog(catalog)
    monkeypatch.setattr(index, "SORT_IN_MEMORY", 0)   # as for a catalog ten times the real one: SQLite sorts
    sorted_by_sqlite = NameIndex.from_catalog(catalog)
    catalog.close()
    assert sorted_by_sqlite.digest == in_memory.digest
    assert len(in_memory) == named and "gone" not in list(in_memory.keys)
    assert list(sorted_by_sqlite.spaceless_keys) == sorted(key.replace(" ", "") for key in in_memory.keys)
    assert Matcher(sorted_by_sqlite).resolve("kazandu valey").best.english_name == "Kazandu Mammoth // Kazandu Valley"
