"""Import Scryfall bulk files: all_cards / default_cards / oracle_cards, and rulings.

Streams record by record and writes in batches, so memory does not grow with the file.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Callable

import msgspec

from bot.i18n import Note
from bot.languages import LANGUAGES
from bot.text import fold
from bot.catalog.build import ImportReport, document_id, foreign_keys_off, schema_sql
from bot.catalog.errors import DataImportError
from bot.catalog.printed import INSERT as PRINTED_INSERT, scryfall_rows as printed_rows
from bot.catalog.rulings import RulingWriter
from bot.catalog.streams import iter_json_records

BATCH = 5000
TOKEN_LAYOUTS = {"token", "double_faced_token", "emblem"}
NO_PRINTED_NAME_LANGS = {"en"}


Progress = Callable[[int], None]

CARD_UPSERT = """
INSERT INTO cards(oracle_id, name, layout, type_line, oracle_text, mana_cost, faces, image_uri, kind)
VALUES (?,?,?,?,?,?,?,?,?)
ON CONFLICT(oracle_id) DO UPDATE SET
    name=excluded.name, layout=excluded.layout, type_line=excluded.type_line,
    oracle_text=excluded.oracle_text, mana_cost=excluded.mana_cost, faces=excluded.faces,
    image_uri=COALESCE(excluded.image_uri, cards.image_uri), kind=excluded.kind
WHERE ?
"""


# a name's printings are counted afresh by each card file (``counting``), then become its ``prints``:
# the same file imported again gives the same counts
NAME_UPSERT = """
INSERT INTO names(oracle_id, lang, name, face, folded, counting) VALUES (?,?,?,?,?,1)
ON CONFLICT(oracle_id, lang, name) DO UPDATE SET counting = coalesce(names.counting, 0) + 1
"""
# the bundled card file only adds the names a catalog lacks, counted as above, and keeps the counts
# of the names it has (the full card file counted them: a handful of bundled printings would undercount)
NAME_ADD = """
INSERT INTO names(oracle_id, lang, name, face, folded, counting) VALUES (?,?,?,?,?,1)
ON CONFLICT(oracle_id, lang, name) DO UPDATE SET counting = names.counting + 1 WHERE names.counting IS NOT NULL
"""
COUNTED = "UPDATE names SET prints = counting, counting = NULL WHERE counting IS NOT NULL"


class ImageUris(msgspec.Struct, gc=False):
    normal: str | None = None


class FaceObject(msgspec.Struct, gc=False):
    """What the importer reads of a face of a Scryfall card object (``card_faces``)."""
    oracle_id: str | None = None
    name: str | None = None
    printed_name: str | None = None
    type_line: str | None = None
    oracle_text: str | None = None
    mana_cost: str | None = None
    printed_type_line: str | None = None
    printed_text: str | None = None
    image_uris: ImageUris | None = None


class CardObject(msgspec.Struct, gc=False):
    """What the importer reads of a Scryfall card object: the fields it does not name are skipped as
    the file is read; a field of another type than these makes the object a Misfit."""
    object: str | None = "card"
    oracle_id: str | None = None
    name: str | None = None
    lang: str | None = None
    printed_name: str | None = None
    layout: str | None = None
    type_line: str | None = None
    oracle_text: str | None = None
    mana_cost: str | None = None
    printed_type_line: str | None = None
    printed_text: str | None = None
    set_type: str | None = None
    promo_types: list | None = None
    image_uris: ImageUris | None = None
    card_faces: list[FaceObject] | None = None


def _text_fields(struct: type) -> tuple[str, ...]:
    return tuple(f.name for f in msgspec.structs.fields(struct) if f.type == str | None)


CARD_TEXT_FIELDS = _text_fields(CardObject)
FACE_TEXT_FIELDS = _text_fields(FaceObject)


# the kinds of JSON value, as a record's problems name them ("name is an object, not text")
KINDS = {dict: Note("an object"), list: Note("a list"), str: Note("text"), bool: Note("true or false"),
         int: Note("a number"), float: Note("a number")}


def wrong_type(field: str, value, wanted: type) -> Note:
    """The field ``field`` holds ``value``, which is not the JSON kind ``wanted``."""
    return Note("{field} is {kind}, not {wanted}", field=field, kind=KINDS.get(type(value), type(value).__name__),
                wanted=KINDS[wanted])


_TEXT, _LIST, _OBJECT = {str, type(None)}, {list, type(None)}, {dict, type(None)}


def wrong_types(obj: dict, text_fields: tuple[str, ...], lists: tuple[str, ...] = (),
                objects: tuple[str, ...] = (), where: str = "") -> Note | None:
    """What is wrong with the types of a record's fields ("name is an object, not text"; each
    field's name after ``where``), or None. Absent and null fields are fine: the importer has
    defaults for them."""
    get = obj.get
    if (_TEXT.issuperset(map(type, map(get, text_fields)))
            and (not lists or _LIST.issuperset(map(type, map(get, lists))))
            and (not objects or _OBJECT.issuperset(map(type, map(get, objects))))):
        return None   # the usual record, checked without a loop in Python
    for key, wanted in [(k, str) for k in text_fields] + [(k, list) for k in lists] + [(k, dict) for k in objects]:
        value = obj.get(key)
        if value is not None and not isinstance(value, wanted):
            return wrong_type(where + key, value, wanted)
    return None


def misfit_problem(value) -> Note:
    """Why a record that is not a CardObject cannot be used, in words."""
    if not isinstance(value, dict) or value.get("object", "card") != "card":
        return Note("not a card object")
    problem = wrong_types(value, CARD_TEXT_FIELDS, ("card_faces", "promo_types"), ("image_uris",))
    if problem:
        return problem
    faces = value.get("card_faces") or ()
    for i, face in enumerate(faces):
        if not isinstance(face, dict):
            return wrong_type(f"card_faces[{i}]", face, dict)
        problem = wrong_types(face, FACE_TEXT_FIELDS, objects=("image_uris",), where=f"card_faces[{i}].")
        if problem:
            return problem
    for where, holder in (("", value), *((f"card_faces[{i}].", face) for i, face in enumerate(faces))):
        uris = holder.get("image_uris")
        if uris and not isinstance(uris.get("normal"), (str, type(None))):
            return wrong_type(where + "image_uris.normal", uris["normal"], str)
    return Note("fields of unexpected types")


def card_kind(card: CardObject, layout: str) -> str:
    if layout == "art_series":
        return "art"
    if layout in TOKEN_LAYOUTS or (card.type_line or "").startswith("Token"):
        return "token"
    if "playtest" in (card.promo_types or ()) or card.set_type == "playtest":
        return "playtest"
    return "card"


def card_row(card: CardObject, oracle_id: str, english: bool) -> tuple:
    """The cards row of an object (its English text; ``english``: the text is the reference)."""
    layout = card.layout or "normal"
    faces = card.card_faces
    uris = card.image_uris
    if not faces:   # most objects
        return (oracle_id, card.name, layout, card.type_line or "", card.oracle_text or "", card.mana_cost or "",
                None, uris and uris.normal, card_kind(card, layout), english)
    type_line = card.type_line or " // ".join(f.type_line or "" for f in faces)
    oracle_text = card.oracle_text
    if oracle_text is None:
        oracle_text = "\n//\n".join(f.oracle_text or "" for f in faces)
    mana_cost = card.mana_cost
    if mana_cost is None:
        mana_cost = " // ".join(f.mana_cost or "" for f in faces)
    if not (uris and uris.normal):
        uris = faces[0].image_uris
    face_texts = json.dumps([{"name": f.name or "", "type_line": f.type_line or "", "oracle_text": f.oracle_text or "",
                              "mana_cost": f.mana_cost or ""} for f in faces], ensure_ascii=False)
    return (oracle_id, card.name, layout, type_line, oracle_text, mana_cost, face_texts, uris and uris.normal,
            card_kind(card, layout), english)


def name_rows(card: CardObject, oracle_id: str, lang: str) -> list[tuple]:
    """Every (oracle_id, lang, name, face, folded name) the object prints."""
    english = lang == "en"
    whole = card.name if english else card.printed_name
    rows = [(oracle_id, lang, whole, -1, fold(whole))] if whole else []
    faces = card.card_faces
    if not faces:   # most objects
        return rows
    for i, face in enumerate(faces):
        face_name = face.name if english else face.printed_name
        if face_name and face_name != whole:
            rows.append((oracle_id, lang, face_name, i, fold(face_name)))
    if not english and not whole:
        printed = [f.printed_name for f in faces]
        if all(printed):
            joined = " // ".join(printed)
            rows.append((oracle_id, lang, joined, -1, fold(joined)))
    return rows


def import_cards(con: sqlite3.Connection, path: Path, progress: Progress | None = None, *,
                 keep_counts: bool = False) -> ImportReport:
    """Import a card file. With ``keep_counts`` (the bundled card file), names the catalog has
    keep their printing counts; only new names are counted."""
    report = ImportReport(str(path), "scryfall-cards")
    # the names' secondary indexes are built once at the end, from the rows in order, rather than
    # kept up to date row by row; every row's card is written before it (in its batch)
    with foreign_keys_off(con):
        con.execute("DROP INDEX IF EXISTS names_by_name")
        con.execute("DROP INDEX IF EXISTS names_by_key")
        objects, others = _read_cards(con, path, report, progress, NAME_ADD if keep_counts else NAME_UPSERT)
        con.execute(COUNTED)
        con.executescript(schema_sql())   # the indexes again
    if others:
        report.add("objects in other languages", others)
    if objects:
        report.add("card objects", objects)
    report.add("oracle cards", con.execute("SELECT count(*) FROM cards").fetchone()[0])
    report.add("names", con.execute("SELECT count(*) FROM names").fetchone()[0])
    return report


def _read_cards(con: sqlite3.Connection, path: Path, report: ImportReport, progress: Progress | None,
                name_upsert: str) -> tuple[int, int]:
    """Write the cards, names and printed texts of the file's objects; (objects read, objects in
    languages Wayfinder does not print)."""
    cards: list[tuple] = []
    names: list[tuple] = []
    printed: list[tuple] = []
    seen: set[str] = set()
    objects = others = 0

    def flush() -> None:
        con.executemany(CARD_UPSERT, cards)
        con.executemany(name_upsert, names)
        con.executemany(PRINTED_INSERT, printed)
        cards.clear()
        names.clear()
        printed.clear()

    for number, card in iter_json_records(path, as_type=CardObject):
        if type(card) is not CardObject:
            report.warn(Note("record {number}: {problem}", number=number, problem=misfit_problem(card.value)))
            continue
        if card.object != "card":
            report.warn(Note("record {number}: {problem}", number=number, problem=Note("not a card object")))
            continue
        oracle_id = card.oracle_id
        if not oracle_id and card.card_faces:
            oracle_id = card.card_faces[0].oracle_id
        if not oracle_id or not card.name:
            report.warn(Note("record {number}: no oracle_id or name", number=number))
            continue
        lang = card.lang or "en"
        if lang == "en":
            cards.append(card_row(card, oracle_id, True))
        else:
            if lang not in LANGUAGES:
                others += 1
            else:
                printed += printed_rows(card, oracle_id, lang)
            # a printing in another language only creates a card not met yet (the English one,
            # when it comes, sets its text): once the card is there, it would change nothing
            if oracle_id not in seen:
                cards.append(card_row(card, oracle_id, False))
        seen.add(oracle_id)
        names += name_rows(card, oracle_id, lang)
        objects += 1
        if len(names) >= BATCH:
            flush()
            if progress:
                progress(number)
    flush()
    return objects, others


class RulingObject(msgspec.Struct, gc=False):
    """What the importer reads of a Scryfall ruling object."""
    object: str | None = "ruling"
    oracle_id: str | None = None
    comment: str | None | msgspec.UnsetType = msgspec.UNSET   # absent: not a ruling
    published_at: str | None = None
    source: str | None = None


RULING_TEXT_FIELDS = tuple(f.name for f in msgspec.structs.fields(RulingObject))[1:]


def ruling_misfit_problem(value) -> Note:
    """Why a record that is not a RulingObject cannot be used, in words."""
    if not isinstance(value, dict) or value.get("object", "ruling") != "ruling" or "comment" not in value:
        return Note("not a ruling object")
    return wrong_types(value, RULING_TEXT_FIELDS) or Note("fields of unexpected types")


def import_rulings(con: sqlite3.Connection, path: Path, progress: Progress | None = None) -> ImportReport:
    report = ImportReport(str(path), "scryfall-rulings")
    doc = document_id(con, "scryfall-rulings", "scryfall-rulings", str(path))
    known = {row[0] for row in con.execute("SELECT oracle_id FROM cards")}
    writer = RulingWriter(con, doc)
    with foreign_keys_off(con):   # a ruling's sources and keys are written after it
        for number, ruling in iter_json_records(path, as_type=RulingObject):
            if type(ruling) is not RulingObject:
                report.warn(Note("record {number}: {problem}", number=number, problem=ruling_misfit_problem(ruling.value)))
                continue
            text = ruling.comment
            if ruling.object != "ruling" or text is msgspec.UNSET:
                report.warn(Note("record {number}: {problem}", number=number, problem=Note("not a ruling object")))
                continue
            if text is None:
                report.warn(Note("record {number}: {problem}", number=number, problem=Note("a ruling without text")))
                continue
            oracle_id = ruling.oracle_id
            if oracle_id not in known:
                report.warn(Note("record {number}: ruling for unknown card {oracle_id}", number=number,
                                 oracle_id=oracle_id))
                continue
            source = ruling.source if ruling.source in ("wotc", "scryfall") else "unknown"
            writer.add(oracle_id, "en", text, published_at=ruling.published_at, source=source,
                       status="original", position=number)
            if progress and number % BATCH == 0:
                progress(number)
        writer.flush()
    report.add("rulings", writer.added)
    if writer.folded:
        report.add("duplicates folded", writer.folded)
    return report


class _Head(msgspec.Struct, gc=False):
    """The fields that tell a Scryfall file's kind."""
    object: Any = None
    oracle_id: Any = msgspec.UNSET


def sniff_kind(path: Path) -> str:
    """'rulings' or 'cards', from the first record of a Scryfall file."""
    for _, head in iter_json_records(path, as_type=_Head):
        if type(head) is _Head and head.object == "ruling":
            return "rulings"
        if type(head) is _Head and (head.object == "card" or head.oracle_id is not msgspec.UNSET):
            return "cards"
        break
    raise DataImportError(str(path), "not a Scryfall card or ruling file", "record 1")
