"""Lay a card's rulings out as pages, in the reader's language."""
from __future__ import annotations

from bot.i18n import Messages
from bot.pages import Field, Page, escape, pack, split_value
from bot.rulings.select import (ENGLISH_FALLBACK, IN_READER_LANGUAGE, MACHINE_HIDDEN, NO_ENGLISH, OtherCard,
                                RulingEntry, RulingsReport)

SOURCE_NAMES = {"wotc": "WotC", "scryfall": "Scryfall"}
COLOR = 0x2E8B57


def _named(shown: str | None, name: str) -> str:
    """A card's name in the reader's language, with its English name beside it."""
    return name if not shown or shown == name else f"{shown} ({name})"


def card_title(report: RulingsReport) -> str:
    return _named(report.display_name, report.card.name)


def other_card_name(card: OtherCard) -> str:
    return _named(card.printed, card.name)


def source_label(entry: RulingEntry, msg: Messages) -> str:
    """Where a ruling comes from ("Source: WotC"), or that it is not known."""
    source = SOURCE_NAMES.get(entry.source)
    return msg._("Source: {source}", source=source) if source else msg._("unknown source")


def _heading(entry: RulingEntry, msg: Messages) -> str:
    return f"{msg.date(entry.published_at) or msg._('undated')} · {source_label(entry, msg)}"


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def language_label(entry: RulingEntry, report: RulingsReport, msg: Messages) -> str | None:
    """What a ruling's text is, when it is not in the reader's language: never an English label
    on another language."""
    if entry.shown == NO_ENGLISH:
        return msg._("{language} — no English text in the catalog",
                     language=capitalized(msg.language_name(entry.lang)))
    if entry.shown == MACHINE_HIDDEN:
        return msg._("English original — this server hides machine translations.")
    if entry.shown == ENGLISH_FALLBACK and not report.no_translation:
        return msg._("Not translated yet — shown in English.")
    return None


def ruling_notes(entry: RulingEntry, report: RulingsReport, msg: Messages, show_originals: bool = False) -> list[str]:
    """What a reader should know of a ruling's text: its language, a machine or partial
    translation, another card's ruling, the documents that hold it."""
    notes = []
    label = language_label(entry, report, msg)
    if label:
        notes.append(label)
    if entry.other_card:
        notes.append(msg._("A ruling published for another card: {card}.", card=other_card_name(entry.other_card)))
    if entry.status == "machine" and entry.shown != MACHINE_HIDDEN:
        notes.append(msg._("Machine translation — the English original is authoritative."))
    if entry.shown != MACHINE_HIDDEN and (entry.status == "partial" or "en" in entry.untranslated_sentences):
        notes.append(msg._("Partly translated — some sentences are still in English."))
    if len(entry.sources) > 1:
        notes.append(msg._("Found in: {documents}", documents=", ".join(s.name for s in entry.sources)))
    if show_originals and entry.shown == IN_READER_LANGUAGE and entry.is_translation and not entry.english_original:
        notes.append(msg._("No English original of this ruling in the catalog."))
    return notes


def _fields(heading: str, entry: RulingEntry, notes: list[str]) -> list[Field]:
    text = entry.text + ("\n" + "\n".join(f"*{n}*" for n in notes) if notes else "")
    return [Field(heading if i == 0 else "…", piece) for i, piece in enumerate(split_value(text))]


def ruling_blocks(report: RulingsReport, msg: Messages, show_originals: bool) -> list[list[Field]]:
    """Each ruling under its date and source; with ``show_originals``, a translation's English
    original after it, under the original's own date, source, documents and card."""
    blocks = []
    for entry in report.entries:
        block = _fields(_heading(entry, msg), entry, ruling_notes(entry, report, msg, show_originals))
        if show_originals and entry.original:
            original = entry.original
            block += _fields(f"{msg._('English original')} · {_heading(original, msg)}", original,
                             ruling_notes(original, report, msg))
        blocks.append(block)
    return blocks


def _language_note(report: RulingsReport, msg: Messages) -> str | None:
    if report.no_translation:
        return msg._("No {language} translation of these rulings exists yet: showing the English originals.",
                     language=msg.language_name(report.lang))
    if report.no_english:
        others = ", ".join(msg.language_name(lang) for lang in report.other_languages)
        if report.lang == "en":
            return msg._("No English text of these rulings is in the catalog: they are shown in {languages}.",
                         languages=others)
        return msg._("No {language} or English text of these rulings is in the catalog: they are shown in"
                     " {languages}.", language=msg.language_name(report.lang), languages=others)
    return None


def card_text_lines(report: RulingsReport, msg: Messages, show_oracle: bool = False) -> list[str]:
    """The card's type line and text: as printed in the reader's language where the catalog has
    it (the Oracle text, the reference, one click away), else the Oracle text with a note."""
    card, printed, language = report.card, report.printed, msg.language_name(report.lang)
    if printed and not show_oracle:
        note = msg._("Card text as printed in {language}; the Oracle text (English) is the reference.",
                     language=language)
        return [f"*{printed.type_line}*" if printed.type_line else "", printed.text, "", f"*{note}*"]
    lines = [f"*{card.type_line}*" if card.type_line else "", card.oracle_text]
    if report.lang != "en" and not printed:
        note = msg._("No {language} printed text of this card in the catalog: the Oracle text (English) is shown.",
                     language=language)
        lines += ["", f"*{note}*"]
    return lines


def ruling_pages(report: RulingsReport, msg: Messages, show_originals: bool = False,
                 show_oracle: bool = False) -> list[Page]:
    card = report.card
    lines = card_text_lines(report, msg, show_oracle)
    note = _language_note(report, msg)
    if note:
        lines += ["", note]
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


def has_translations(report: RulingsReport) -> bool:
    """Whether the "English original" button has anything to say: a translation is shown."""
    return any(e.is_translation for e in report.entries)
