"""Import MTGJSON v5 set files and AllPrintings: cards, foreignData names, rulings."""
from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.catalog.build import ImportReport, document_id
from bot.catalog.errors import DataImportError
from bot.catalog.printed import INSERT as PRINTED_INSERT, mtgjson_row
from bot.catalog.rulings import RulingWriter
from bot.i18n import Note
from bot.languages import MTGJSON_NAMES
from bot.text import fold
from bot.catalog.scryfall import CARD_UPSERT, wrong_type, wrong_types
from bot.catalog.streams import first_key, iter_json_records

LANGUAGES = {name: lang for lang, names in MTGJSON_NAMES.items() for name in names}
# one printing of each card is read: a name it brings is new (one printing), a name already there
# keeps the printings a card file counted
NAME_INSERT = "INSERT INTO names(oracle_id, lang, name, face, folded) VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING"


def _is_all_printings(path: Path) -> bool:
    key = first_key(path, "data")
    if key is None:
        raise DataImportError(str(path), "no 'data' object: not an MTGJSON file", "start")
    # a set file's data object starts with set fields; AllPrintings with set codes
    return key.isupper() and key not in ("cards",)


def iter_set_cards(path: Path):
    """Yield (set code, card) for a set file or AllPrintings, one set in memory at a time."""
    if _is_all_printings(path):
        for _, (code, set_obj) in iter_json_records(path, "data", pairs=True):
            cards = set_obj.get("cards") if isinstance(set_obj, dict) else None
            for card in cards if isinstance(cards, list) else []:
                yield code, card
    else:
        code = path.stem.upper()
        for _, card in iter_json_records(path, prefix="data.cards.item"):
            yield code, card


def card_problem(card) -> Note | None:
    """Why an MTGJSON card cannot be used as it is typed, or None."""
    if not isinstance(card, dict):
        return Note("not an object")
    problem = wrong_types(card, ("name", "faceName", "layout", "type", "text", "manaCost"),
                          ("foreignData", "rulings"), ("identifiers",))
    if problem:
        return problem
    oracle_id = (card.get("identifiers") or {}).get("scryfallOracleId")
    if not isinstance(oracle_id, (str, type(None))):
        return wrong_type("identifiers.scryfallOracleId", oracle_id, str)
    side = card.get("side")
    if side is not None and not (isinstance(side, str) and len(side) == 1 and "a" <= side <= "z"):
        return Note("{field} is not a letter", field="side")
    for field, texts in (("foreignData", ("language", "name", "faceName")), ("rulings", ("text", "date"))):
        for i, entry in enumerate(card.get(field) or []):
            where = f"{field}[{i}]"
            problem = wrong_types(entry, texts, where=where + ".") if isinstance(entry, dict) else \
                wrong_type(where, entry, dict)
            if problem:
                return problem
        if field == "rulings" and any(not entry.get("text") for entry in card.get(field) or []):
            return Note("a ruling without text")
    return None


def import_mtgjson(con: sqlite3.Connection, path: Path) -> ImportReport:
    report = ImportReport(str(path), "mtgjson")
    doc = document_id(con, f"mtgjson:{path.name}", "mtgjson", str(path))
    seen_faces: set[tuple[str, str]] = set()
    writer = RulingWriter(con, doc)
    for code, card in iter_set_cards(path):
        problem = card_problem(card)
        if problem:
            report.warn(Note("{code} card: {problem}", code=code, problem=problem))
            continue
        oracle_id = (card.get("identifiers") or {}).get("scryfallOracleId")
        if not oracle_id or not card.get("name"):
            report.warn(Note("{code} {name}: no Scryfall oracle id or no name", code=code, name=card.get("name")))
            continue
        name = card["name"]
        face_name = card.get("faceName")
        side = card.get("side")
        face_index = (ord(side) - ord("a")) if side else -1
        if (oracle_id, face_name or name) in seen_faces:
            continue  # another printing of a card already read
        seen_faces.add((oracle_id, face_name or name))
        con.execute(CARD_UPSERT, (
            oracle_id, name, card.get("layout") or "normal", card.get("type") or "",
            card.get("text") or "", card.get("manaCost") or "", None, None,
            "token" if card.get("layout") == "token" else "card", face_index <= 0))
        rows = [(oracle_id, "en", name, -1)]
        if face_name:
            rows.append((oracle_id, "en", face_name, face_index))
        for foreign in card.get("foreignData") or []:
            lang = LANGUAGES.get(foreign.get("language"))
            if not lang:
                continue
            if foreign.get("faceName"):
                rows.append((oracle_id, lang, foreign["faceName"], face_index))
            elif foreign.get("name"):
                rows.append((oracle_id, lang, foreign["name"], -1))
            report.add("printed names")
            text = mtgjson_row(oracle_id, lang, face_index, foreign)
            if text:
                con.execute(PRINTED_INSERT, text)
        con.executemany(NAME_INSERT, [row + (fold(row[2]),) for row in rows])
        report.add("cards")
        if face_index <= 0:
            for position, ruling in enumerate(card.get("rulings") or []):
                writer.add(oracle_id, "en", ruling["text"], published_at=ruling.get("date"), source="unknown",
                           status="original", position=position)
    writer.flush()
    report.add("rulings", writer.added)
    return report
