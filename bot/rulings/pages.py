"""Lay a card's rulings out as pages, in the reader's language."""
from __future__ import annotations

from bot.i18n import Messages
from bot.pages import Field, Page, escape, pack, split_value
from bot.rulings.select import RulingEntry, RulingsReport

SOURCE_NAMES = {"wotc": "WotC", "scryfall": "Scryfall"}
COLOR = 0x2E8B57


def card_title(report: RulingsReport) -> str:
    shown = report.display_name
    return shown if shown == report.card.name else f"{shown} ({report.card.name})"


def _heading(entry: RulingEntry, msg: Messages) -> str:
    date = msg.date(entry.published_at) or msg._("undated")
    source = SOURCE_NAMES.get(entry.source)
    return f"{date} · {msg._('Source: {source}', source=source) if source else msg._('unknown source')}"


def _notes(entry: RulingEntry, msg: Messages) -> list[str]:
    notes = []
    if entry.status == "machine":
        notes.append(msg._("Machine translation — the English original is authoritative."))
    elif entry.status == "partial":
        notes.append(msg._("Partly translated — some sentences are still in English."))
    if entry.untranslated:
        notes.append(msg._("Not translated yet — shown in English."))
    return notes


def ruling_blocks(report: RulingsReport, msg: Messages, show_originals: bool) -> list[list[Field]]:
    blocks = []
    for entry in report.entries:
        notes = _notes(entry, msg)
        text = entry.text + ("\n" + "\n".join(f"*{n}*" for n in notes) if notes else "")
        pieces = split_value(text)
        block = [Field(_heading(entry, msg) if i == 0 else "…", piece) for i, piece in enumerate(pieces)]
        if show_originals and entry.original:
            for i, piece in enumerate(split_value(entry.original)):
                block.append(Field(msg._("English original") if i == 0 else "…", piece))
        blocks.append(block)
    return blocks


def ruling_pages(report: RulingsReport, msg: Messages, show_originals: bool = False) -> list[Page]:
    card = report.card
    lines = [f"*{card.type_line}*" if card.type_line else "", card.oracle_text]
    if report.no_translation:
        lines.append("")
        lines.append(msg._("No {language} translation of these rulings exists yet: showing the English originals.",
                           language=msg.language_name(report.lang)))
    if report.search:
        lines.append("")
        if report.entries:
            lines.append(msg._("Rulings that mention “{search}”: {shown} of {total}.",
                               search=escape(report.search), shown=len(report.entries), total=report.total))
        else:
            lines.append(msg._("No ruling matches “{search}”.", search=escape(report.search)))
    elif not report.entries:
        lines.append("")
        lines.append(msg._("No rulings have been published for this card."))
    header = Page(
        title=card_title(report),
        description="\n".join(line for line in lines if line is not None).strip(),
        footer=msg.n_("{count} ruling", "{count} rulings", len(report.entries)),
        thumbnail=card.image_uri,
        color=COLOR,
    )
    return pack(header, ruling_blocks(report, msg, show_originals),
                lambda page, pages: msg._("Page {page} of {pages}", page=page, pages=pages))


def has_originals(report: RulingsReport) -> bool:
    return any(e.original for e in report.entries)
