"""Inline [[card]]: the cards a message names in double brackets, answered in one short message —
each card in the reader's language with its type line, and a way to open its rulings."""
from __future__ import annotations

import re

from bot.i18n import messages
from bot.pages import escape
from bot.reply import Choice, Reply
from bot.services import Services

PATTERN = re.compile(r"\[\[([^\[\]\n]{1,100})\]\]")
MAX_PER_MESSAGE = 3


def inline_names(text: str) -> list[str]:
    """The names in double brackets, at most MAX_PER_MESSAGE of them."""
    return PATTERN.findall(text or "")[:MAX_PER_MESSAGE]


def inline_cards(services: Services, names: list[str], lang: str) -> Reply:
    """One line per name; a choice (label, oracle id) to open the rulings of each card found."""
    msg = messages(lang)
    lines, choices = [], []
    for name in names:
        result = services.matcher.resolve(name, prefer_lang=lang)
        if result.status != "one":
            lines.append(msg._("No card named “{query}”.", query=escape(name)))
            continue
        card = services.catalog.card(result.best.oracle_id)
        printed = services.catalog.printed_name(card.oracle_id, lang) or card.name
        title = printed if printed == card.name else f"{printed} ({card.name})"
        lines.append(f"**{escape(title)}** — {escape(card.type_line)}")
        choices.append(Choice(f"{msg._('Open rulings')}: {printed}", card.oracle_id))
    return Reply(content="\n".join(lines), choices=choices)
