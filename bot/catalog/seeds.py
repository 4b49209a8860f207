"""Import ruling documents (the seeds' format) into the catalog."""
from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

from rapidfuzz import fuzz

from bot.text import fold
from bot.catalog.build import ImportReport, document_id
from bot.catalog.documents import ParsedDocument, ParsedRuling, parse_document
from bot.catalog.errors import SkippedFile
from bot.catalog.names import DocumentCardFinder
from bot.catalog.rulings import RulingWriter
from bot.rules.numbers import is_subrule, parent_number
from bot.i18n import Note

NEAR_DUPLICATE = 85  # rapidfuzz ratio between folded wordings of one ruling


def fold_duplicates(rulings: list[ParsedRuling]) -> list[ParsedRuling]:
    """Merge rulings stated twice (same date and language, near-identical wording)."""
    kept: list[ParsedRuling] = []
    for ruling in rulings:
        for other in kept:
            if (other.published_at == ruling.published_at and other.lang == ruling.lang
                    and fuzz.ratio(fold(other.text), fold(ruling.text)) >= NEAR_DUPLICATE):
                other.wordings.append(ruling.text)
                if ruling.mixed_langs and not other.mixed_langs:
                    other.mixed_langs = ruling.mixed_langs
                break
        else:
            kept.append(ruling)
    return kept


def resolve_card(doc: ParsedDocument, index: DocumentCardFinder) -> str:
    for line in doc.card_lines:
        found = index.exact(line)
        if found:
            return found
    if doc.title:
        found = index.closest(doc.title)
        if found:
            return found
    found = index.mentioned([r.text for r in doc.rulings])
    if found:
        return found
    raise SkippedFile(doc.path, Note("no card in the catalog matches the title {title}", title=repr(doc.title))
                      if doc.title else "the document names no card the catalog knows")


def status_of(ruling: ParsedRuling, doc: ParsedDocument) -> str:
    if ruling.lang == "en":
        return "original"
    if doc.notice and doc.notice_lang == ruling.lang:
        return "machine"     # a machine translation stays one (and hidden where machine ones are)
    if "en" in ruling.mixed_langs:
        return "partial"
    return "translation"


def import_document(con: sqlite3.Connection, path: Path, index: DocumentCardFinder | None = None) -> ImportReport:
    report = ImportReport(str(path), "ruling document")
    doc = parse_document(path)
    oracle_id = resolve_card(doc, index or DocumentCardFinder(con))
    doc_id = document_id(con, f"seed:{Path(path).name}", "seed", str(path), doc.title, doc.notice)
    rulings = fold_duplicates(doc.rulings)
    writer = RulingWriter(con, doc_id)
    for position, ruling in enumerate(rulings):
        source = ruling.source if ruling.source in ("wotc", "scryfall") else "unknown"
        writer.add(oracle_id, ruling.lang, ruling.text, published_at=ruling.published_at, source=source,
                   status=status_of(ruling, doc), position=position, wordings=ruling.wordings,
                   mixed_langs=ruling.mixed_langs)
    writer.flush()
    report.add("duplicates folded", len(doc.rulings) - len(rulings) + writer.folded)
    report.add("rulings", writer.added)
    if doc.rules:
        _store_rule_excerpt(con, doc, doc_id)
        report.add("rules quoted", len(doc.rules))
    return report


def _store_rule_excerpt(con: sqlite3.Connection, doc: ParsedDocument, doc_id: int) -> None:
    """A translated excerpt of the Comprehensive Rules; its edition is found when it is read."""
    lang = doc.rules_lang or "en"
    con.execute("DELETE FROM cr_editions WHERE document_id = ?", (doc_id,))
    # keyed by its content: the same excerpt under another file name is the same excerpt
    digest = hashlib.sha256("\n".join(f"{n} {t}" for n, t in doc.rules).encode()).hexdigest()[:16]
    cur = con.execute("INSERT OR REPLACE INTO cr_editions(effective_date, lang, document_id)"
                      " VALUES (?,?,?)", (f"excerpt:{digest}", lang, doc_id))
    edition = cur.lastrowid
    for position, (number, text) in enumerate(doc.rules):
        parent = parent_number(number)
        title = None if is_subrule(number) else text
        con.execute("INSERT OR REPLACE INTO cr_rules(edition_id, number, parent, title, text, examples,"
                    " position) VALUES (?,?,?,?,?,?,?)",
                    (edition, number, parent, title, f"{number}{'.' if title else ''} {text}", None, position))
