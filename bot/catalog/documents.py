"""Read ruling documents: a title naming the card (or none), date lines, one ruling after each.

Also the article format: a card block with its reminder text, Comprehensive Rules lines
("701.38a …") and bullet rulings ("* …"). Nothing here touches the database: ``parse_document``
returns plain values that ``seeds.import_document`` stores.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from bot.catalog.langdetect import detect, detect_sentences, detectable
from bot.catalog.dates import parse_date_line
from bot.catalog.errors import DataImportError, SkippedFile, utf8_text
from bot.languages import LANGUAGES
from bot.i18n import Note

_NOTICE = re.compile(
    r"(générée? automatiquement|traduction automatique|traducción automática|traduzione automatica"
    r"|tradução automática|maschinell übersetzt|machine[- ]translat|automatically (generated|translated)"
    r"|\bIA\b|\bAI\b|機械翻訳|기계 번역|машинный перевод|机器翻译|機器翻譯)", re.IGNORECASE)
_RULE_LINE = re.compile(r"^(\d{3}\.\d+[a-z]?)\.?\s+(.*)$")
_BULLET = re.compile(r"^\s*[*•\-–]\s+(.*)$")


@dataclass
class ParsedRuling:
    text: str
    published_at: str | None
    source: str | None
    lang: str
    mixed_langs: tuple[str, ...] = ()
    wordings: list[str] = field(default_factory=list)


@dataclass
class ParsedDocument:
    path: str
    title: str | None
    notice: str | None
    notice_lang: str | None
    rulings: list[ParsedRuling]
    card_lines: list[str]          # lines that may name the card (title, article card block)
    rules: list[tuple[str, str]]   # (number, text) of quoted Comprehensive Rules
    rules_lang: str | None


def _is_notice(line: str) -> bool:
    return bool(_NOTICE.search(line))


def parse_document(path: Path | str, text: str | None = None) -> ParsedDocument:
    path = Path(path)
    if text is None:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DataImportError(str(path), Note("unreadable document: {error}", error=exc.strerror or exc)) from exc
        text = utf8_text(path, raw)
    lines = [line.strip() for line in text.splitlines()]
    title = notice = None
    rulings: list[ParsedRuling] = []
    card_lines: list[str] = []
    rules: list[tuple[str, str]] = []
    current: ParsedRuling | None = None
    pending_date: tuple[str, str | None] | None = None
    body: list[str] = []

    def close() -> None:
        nonlocal pending_date, body
        if pending_date is not None and body:
            rulings.append(_ruling(" ".join(body), *pending_date))
        elif pending_date is not None:
            raise DataImportError(str(path), "a date line with no ruling after it")
        pending_date, body = None, []

    for number, line in enumerate(lines, start=1):
        if not line:
            continue
        dated = parse_date_line(line)
        if dated:
            close()
            pending_date = dated
            continue
        if pending_date is not None:
            body.append(line)
            continue
        if _is_notice(line) and notice is None:
            notice = line
            continue
        if m := _BULLET.match(line):
            rulings.append(_ruling(m.group(1), None, None))
            continue
        if m := _RULE_LINE.match(line):
            rules.append((m.group(1), m.group(2)))
            continue
        if len(line) <= 80 and not line.endswith((".", ":", ")")):
            if title is None and not rulings:
                title = line
            card_lines.append(line)
    close()
    del current
    if not rulings:
        raise DataImportError(str(path), "no ruling found (expected date lines or bullets)")
    unknown = [r.text for r in rulings if not detectable(r.text)]
    if unknown:
        raise SkippedFile(str(path), Note("the language of {count} of its {total} rulings cannot be told"
                                          " (not one of {languages}): {text}", count=len(unknown), total=len(rulings),
                                          languages=", ".join(LANGUAGES), text=f"“{unknown[0][:60]}”"))
    rules_lang = detect(" ".join(text for _, text in rules)) if rules else None
    return ParsedDocument(str(path), title, notice, detect(notice) if notice else None,
                          rulings, card_lines, rules, rules_lang)


def _ruling(text: str, published_at: str | None, source: str | None) -> ParsedRuling:
    found = detect_sentences(text)
    return ParsedRuling(text=text, published_at=published_at, source=source, lang=found.lang,
                        mixed_langs=found.mixed_with)
