"""What the language tests of /ruling share: reading a ruling's label back from the page."""
from __future__ import annotations

from bot.catalog.langdetect import detect
from bot.i18n import messages
from bot.languages import LANGUAGES

CARDS = ("Queen's Agent", "Defossilize", "Glowcap Lantern", "Nicanzil, Current Conductor")


def labels(lang: str) -> dict[str, str]:
    """Every note that names the language of a ruling's text, as a reader of ``lang`` sees it."""
    msg = messages(lang)
    found = {msg._("{language} — no English text in the catalog",
                   language=msg.language_name(other)[:1].upper() + msg.language_name(other)[1:]): other
             for other in LANGUAGES}
    found[msg._("Not translated yet — shown in English.")] = "en"
    found[msg._("English original — this server hides machine translations.")] = "en"
    return found


def header_language(lang: str, description: str) -> str:
    """The language every ruling is in by the page's own note (the reader's, or English)."""
    msg = messages(lang)
    if lang != "en" and msg._("No {language} translation of these rulings exists yet: showing the English originals.",
                              language=msg.language_name(lang)) in description:
        return "en"
    return lang


def check_field(lang: str, value: str, default: str) -> str:
    """Check one ruling as shown (its text, then its notes in italics); return its language."""
    lines = value.split("\n")
    text = "\n".join(line for line in lines if not (line.startswith("*") and line.endswith("*")))
    notes = [line.strip("*") for line in lines if line.startswith("*") and line.endswith("*")]
    named = [labels(lang)[n] for n in notes if n in labels(lang)]
    assert len(named) <= 1, notes
    shown_as = named[0] if named else default
    assert detect(text) == shown_as, (lang, shown_as, text[:80], notes)
    other_card = messages(lang)._("A ruling published for another card: {card}.", card="\0").split("\0")
    for note in notes:  # every note is in the reader's language
        assert note in _all_notes(lang) or (note.startswith(other_card[0]) and note.endswith(other_card[1])), note
    return shown_as


def _all_notes(lang: str) -> set[str]:
    msg = messages(lang)
    return set(labels(lang)) | {
        msg._("Machine translation — the English original is authoritative."),
        msg._("Partly translated — some sentences are still in English."),
        msg._("No English original of this ruling in the catalog."),
    }
