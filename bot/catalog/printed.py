"""A card's text as printed in another language: Scryfall's ``printed_name``, ``printed_type_line``
and ``printed_text`` of a non-English printing, MTGJSON's ``foreignData``. One text per card,
language and face (the first printing read gives it); the Oracle text stays the reference."""
from __future__ import annotations

import sqlite3

INSERT = ("INSERT OR IGNORE INTO printed_texts(oracle_id, lang, face, name, type_line, text)"
          " VALUES (?,?,?,?,?,?)")


def scryfall_rows(card, oracle_id: str, lang: str) -> list[tuple]:
    """(oracle_id, lang, face, name, type_line, text) of a Scryfall card object printed in ``lang``,
    another language than English (``card``: bot.catalog.scryfall.CardObject)."""
    if card.printed_text is None and not card.printed_type_line and not card.card_faces:
        return []   # most objects: they print no text
    rows = []
    for face, part in [(-1, card), *enumerate(card.card_faces or ())]:
        if part.printed_text is not None or part.printed_type_line:
            rows.append((oracle_id, lang, face, part.printed_name, part.printed_type_line or "", part.printed_text or ""))
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
