"""A card's text as printed in another language: Scryfall's ``printed_name``, ``printed_type_line``
and ``printed_text`` of a non-English printing, MTGJSON's ``foreignData``. One text per card,
language and face (the first printing read gives it); the Oracle text stays the reference."""
from __future__ import annotations

import sqlite3

from bot.languages import LANGUAGES

FIELDS = {"printed_text", "printed_type_line", "card_faces"}   # an object without them prints no text
INSERT = ("INSERT OR IGNORE INTO printed_texts(oracle_id, lang, face, name, type_line, text)"
          " VALUES (?,?,?,?,?,?)")


def scryfall_rows(obj: dict) -> list[tuple]:
    """(oracle_id, lang, face, name, type_line, text) of a Scryfall card object in another language."""
    lang = obj.get("lang") or "en"
    if lang == "en" or lang not in LANGUAGES:
        return []
    rows = []
    for face, part in [(-1, obj), *enumerate(obj.get("card_faces") or [])]:
        if part.get("printed_text") is not None or part.get("printed_type_line"):
            rows.append((obj["oracle_id"], lang, face, part.get("printed_name"),
                         part.get("printed_type_line") or "", part.get("printed_text") or ""))
    return rows


def mtgjson_row(oracle_id: str, lang: str, face: int, foreign: dict) -> tuple | None:
    """The row of one MTGJSON ``foreignData`` entry, when it carries a text or a type line."""
    if lang == "en" or not (foreign.get("text") or foreign.get("type")):
        return None
    return (oracle_id, lang, face, foreign.get("faceName") or foreign.get("name"),
            foreign.get("type") or "", foreign.get("text") or "")


def move_printed(con: sqlite3.Connection, from_card: str, to_card: str) -> None:
    con.execute("INSERT OR IGNORE INTO printed_texts(oracle_id, lang, face, name, type_line, text)"
                " SELECT ?, lang, face, name, type_line, text FROM printed_texts WHERE oracle_id = ?",
                (to_card, from_card))
    con.execute("DELETE FROM printed_texts WHERE oracle_id = ?", (from_card,))
