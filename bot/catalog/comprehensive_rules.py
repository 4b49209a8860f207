"""Parse the Comprehensive Rules text file as Wizards of the Coast publishes it.

The file comes with a BOM or without, in UTF-8 or (older editions) Windows-1252, with CRLF or
bare-CR line endings. It holds a table of contents, the numbered rules (sections "7.",
rules "701.", "701.44.", subrules "701.44a"), "Example:" paragraphs under rules, a glossary,
and credits.
"""
from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from bot.catalog.build import ImportReport, document_id
from bot.catalog.dates import parse_date_line
from bot.catalog.errors import DataImportError, SkippedFile, byte_position, not_utf8
from bot.catalog.streams import STREAM_ERRORS, open_binary
from bot.rules.numbers import is_subrule, parent_number
from bot.i18n import Note

_EFFECTIVE = re.compile(r"effective as of ([A-Z][a-z]+ \d{1,2}, \d{4})")
_SECTION = re.compile(r"^(\d)\. (.+)$")
_RULE = re.compile(r"^(\d{3})\. (.+)$")
_NUMBERED = re.compile(r"^(\d{3}\.\d+)\.? (.+)$")
_SUBRULE = re.compile(r"^(\d{3}\.\d+[a-z])\.? (.+)$")


@dataclass
class Rule:
    number: str
    text: str              # the rule's own line(s), exactly as published
    title: str | None = None
    parent: str | None = None
    examples: list[str] = field(default_factory=list)


@dataclass
class RulesDocument:
    effective_date: str
    rules: list[Rule]
    glossary: list[tuple[str, str]]


def read_text(path: Path) -> str:
    """The file's text: UTF-8, or Windows-1252 when it has no UTF-8 characters before its first
    byte that is not UTF-8 (a UTF-8 file with a bad byte is an error, not Windows-1252 text)."""
    try:
        with open_binary(path) as stream:   # as published, or gzip-compressed (the bundled edition)
            raw = stream.read()
    except STREAM_ERRORS as exc:
        raise DataImportError(str(path), Note("unreadable: {error}", error=getattr(exc, "strerror", None) or exc)) from exc
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        if any(byte >= 0x80 for byte in raw[:exc.start]):   # UTF-8 characters before it
            raise not_utf8(path, raw, exc.start) from None
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise DataImportError(str(path), Note("byte 0x{byte} is neither UTF-8 nor Windows-1252 text",
                                              byte=f"{raw[exc.start]:02x}"), byte_position(raw, exc.start)) from None


def _title(text: str) -> str | None:
    return text if len(text) <= 80 and not text.endswith((".", ":")) else None


def parse_rules(text: str, path: str = "<text>") -> RulesDocument:
    lines = [line.strip() for line in text.splitlines()]
    found = _EFFECTIVE.search(text[:2000])
    dated = parse_date_line(found.group(1)) if found else None
    if not dated:   # no edition to file it under: refused whole, the other files import
        said = f"“{found.group(0)}”" if found else Note("no “These rules are effective as of …” line")
        raise SkippedFile(path, Note("an edition of the Comprehensive Rules that cannot be told: {said}", said=said),
                          "start")
    effective = dated[0]
    credits = [i for i, line in enumerate(lines) if line == "Credits"]
    glossary_at = [i for i, line in enumerate(lines) if line == "Glossary"]
    if len(credits) < 2 or len(glossary_at) < 2:
        raise DataImportError(path, "no table of contents, glossary and credits: not a Comprehensive Rules file")
    body_start, body_end, end = credits[0] + 1, glossary_at[-1], credits[-1]
    rules: list[Rule] = []
    for number, line in enumerate(lines[body_start:body_end], start=body_start + 1):
        if not line:
            continue
        match = (_SUBRULE.match(line) or _NUMBERED.match(line) or _RULE.match(line)
                 or _SECTION.match(line))
        if match:
            num, rest = match.group(1), match.group(2)
            title = None if is_subrule(num) else _title(rest)
            rules.append(Rule(num, line, title, parent_number(num)))
        elif rules and line.startswith("Example:"):
            rules[-1].examples.append(line)
        elif rules:
            rules[-1].text += "\n" + line
        else:
            raise DataImportError(path, Note("text before the first rule: {text}", text=repr(line[:40])),
                                  Note("line {number}", number=number))
    glossary: list[tuple[str, str]] = []
    block: list[str] = []
    for line in lines[body_end + 1:end] + [""]:
        if line:
            block.append(line)
        elif block:
            glossary.append((block[0], "\n".join(block[1:])))
            block = []
    return RulesDocument(effective, rules, glossary)


def import_rules(con: sqlite3.Connection, path: Path) -> ImportReport:
    report = ImportReport(str(path), "comprehensive rules")
    try:
        doc = parse_rules(read_text(path), str(path))
    except OSError as exc:
        raise DataImportError(str(path), Note("unreadable: {error}", error=exc)) from exc
    doc_id = document_id(con, f"cr:{doc.effective_date}", "cr", str(path), f"Comprehensive Rules {doc.effective_date}")
    con.execute("DELETE FROM cr_editions WHERE effective_date = ? AND lang = 'en'", (doc.effective_date,))
    edition = con.execute("INSERT INTO cr_editions(effective_date, lang, document_id) VALUES (?,?,?)",
                          (doc.effective_date, "en", doc_id)).lastrowid
    con.executemany(
        "INSERT OR REPLACE INTO cr_rules(edition_id, number, parent, title, text, examples, position)"
        " VALUES (?,?,?,?,?,?,?)",
        [(edition, r.number, r.parent, r.title, r.text,
          json.dumps(r.examples, ensure_ascii=False) if r.examples else None, i)
         for i, r in enumerate(doc.rules)])
    con.executemany("INSERT OR REPLACE INTO cr_glossary(edition_id, term, definition) VALUES (?,?,?)",
                    [(edition, term, definition) for term, definition in doc.glossary])
    report.add("rules", sum(1 for r in doc.rules if "." in r.number and r.number.split(".")[1]))
    report.add("glossary entries", len(doc.glossary))
    report.add("examples", sum(len(r.examples) for r in doc.rules))
    return report
