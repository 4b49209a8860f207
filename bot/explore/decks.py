"""Decks: preset decks shipped in data/decks, and decklists pasted in MTGA, MTGO or plain
"4 Name" form, names in any language, resolved by the matcher; an error for each bad line."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.config import DATA_DIR
from bot.i18n import Messages
from bot.pages import escape

if TYPE_CHECKING:
    from bot.matching import Matcher

DECKS_DIR = DATA_DIR / "decks"
MIN_CARDS, MAX_CARDS = 1, 500
MAX_LINES, MAX_CHARS = 600, 20_000
MAX_COPIES = 250

_LINE = re.compile(r"^(?:SB:\s*)?(\d{1,4})\s*[xX]?\s+(.+?)\s*$")
_SET_SUFFIX = re.compile(r"\s+\(([A-Za-z0-9]{2,6})\)(?:\s+[\w★-]+)?$")
_MAIN_HEADERS = {"deck", "main", "mainboard", "main deck", "maindeck"}
_SKIP_HEADERS = {"sideboard", "side", "sideboard:", "maybeboard", "considering", "commander", "companion",
                 "about", "tokens"}


@dataclass
class DeckList:
    name: str
    cards: list[tuple[int, str]] = field(default_factory=list)     # (count, oracle id)
    errors: list[str] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(n for n, _ in self.cards)

    def oracle_ids(self) -> list[str]:
        return [oracle_id for n, oracle_id in self.cards for _ in range(n)]


def unknown_deck(msg: Messages, name: str, known: list[str]) -> str:
    """The one message for a deck name that is neither a preset nor saved."""
    return msg._("No deck named “{deck}”. Decks: {decks}.", deck=escape(name),
                 decks=", ".join(escape(k) for k in known) or "—")


def preset_names() -> list[str]:
    return sorted(p.stem for p in DECKS_DIR.glob("*.txt"))


def preset_text(name: str) -> str | None:
    path = DECKS_DIR / f"{name}.txt"
    return path.read_text(encoding="utf-8") if path.exists() and name in preset_names() else None


def parse(text: str, matcher: Matcher, msg: Messages, name: str = "deck", lang: str | None = None) -> DeckList:
    """Read a decklist; the sideboard (and commander, companion, maybeboard) is left out."""
    deck = DeckList(name)
    if len(text) > MAX_CHARS:
        deck.errors.append(msg._("The decklist is too long (at most {limit} characters).", limit=MAX_CHARS))
        return deck
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        deck.errors.append(msg._("The decklist is too long (at most {limit} lines).", limit=MAX_LINES))
        return deck
    in_main, seen_cards, headers = True, False, False
    totals: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            if seen_cards and not headers:
                in_main = False   # MTGO: the sideboard follows a blank line
            continue
        lowered = line.lower().rstrip(":")
        if line.startswith(("#", "//")):
            continue
        if lowered in _MAIN_HEADERS:
            in_main = headers = True
            continue
        if lowered in _SKIP_HEADERS or lowered.startswith("name "):
            in_main, headers = False, True
            continue
        if not in_main or line.upper().startswith("SB:"):
            continue
        match = _LINE.match(line)
        if not match:
            deck.errors.append(msg._("Line {line}: expected “count name”, like “4 Jadelight Ranger”.", line=number))
            continue
        count, name_text = int(match.group(1)), _SET_SUFFIX.sub("", match.group(2))
        if not 1 <= count <= MAX_COPIES:
            deck.errors.append(msg._("Line {line}: {count} copies is not a count a deck can hold.",
                                     line=number, count=count))
            continue
        result = matcher.resolve(name_text, prefer_lang=lang)
        if result.status != "one":
            message = msg._("Line {line}: no card named “{name}”.", line=number, name=escape(name_text))
            if result.candidates:
                message += " " + msg._("Did you mean: {suggestions}?",
                                       suggestions=", ".join(escape(c.label()) for c in result.candidates[:3]))
            deck.errors.append(message)
            continue
        seen_cards = True
        totals[result.best.oracle_id] = totals.get(result.best.oracle_id, 0) + count
    deck.cards = [(n, oracle_id) for oracle_id, n in totals.items()]
    if not deck.errors and not MIN_CARDS <= deck.size <= MAX_CARDS:
        deck.errors.append(msg._("A deck needs between {min} and {max} cards; this one has {count}.",
                                 min=MIN_CARDS, max=MAX_CARDS, count=deck.size))
    return deck


